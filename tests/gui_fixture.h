#pragma once
// A real window with its model worker thread on the bundled model, for GUI tests (offscreen).
#include "app/gui/wiring.h"
#include "model/shapes/scene.h"
#include "ui/imaging/image_loader.h"
#include "ui/window/main_window.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace cltest {

inline const QString kModel = QStringLiteral(CL_SOURCE_DIR "/resources/models/default.pt");

struct GuiFixture {
    std::unique_ptr<cl::ui::MainWindow> window;
    std::unique_ptr<cl::ModelThread> thread;
    QTemporaryDir dir;

    // Returns false when the bundled model did not load.
    bool start() {
        QStandardPaths::setTestModeEnabled(true); // recent files go to a test location
        window = std::make_unique<cl::ui::MainWindow>();
        thread = std::make_unique<cl::ModelThread>(*window);
        window->setShowDialogs(false);
        window->show();
        window->openCheckpoint(kModel);
        return QTest::qWaitFor([&] { return !window->busy(); }, 30000) &&
               QString::fromStdString(window->model().path) == kModel;
    }
    void stop() {
        thread.reset();
        window.reset();
    }
    QString saveScene(quint64 seed) {
        const cl::Scene s = cl::generateScene(seed);
        const QString path = dir.filePath(QStringLiteral("scene%1.png").arg(seed));
        cl::toQImage({s.spec.side, s.spec.side, s.rgb}).save(path);
        return path;
    }
    bool openAndWait(const QString& image) {
        QSignalSpy spy(window.get(), &cl::ui::MainWindow::viewUpdated);
        window->openImage(image);
        return spy.wait(30000);
    }
};

} // namespace cltest
