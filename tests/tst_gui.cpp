// The window driven through its real code paths (offscreen): the model worker thread, file
// opening, word selection, errors that keep the previous state, and rapid switching.
#include "attention_panel.h"
#include "attention_tile.h"
#include "caption_panel.h"
#include "heatmap_plot.h"
#include "image_loader.h"
#include "main_window.h"
#include "scene.h"
#include "selection.h"
#include "wiring.h"
#include "word_chips.h"

#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace cl;

namespace {
const QString kModel = QStringLiteral(CL_SOURCE_DIR "/resources/models/default.pt");

QString saveScene(const QTemporaryDir& dir, quint64 seed) {
    const Scene s = generateScene(seed);
    const QString path = dir.filePath(QStringLiteral("scene%1.png").arg(seed));
    toQImage({s.spec.side, s.spec.side, s.rgb}).save(path);
    return path;
}
}  // namespace

class TestGui : public QObject {
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void captionMatchesCli();
    void attentionGridHasEveryHead();
    void clickingAWordChangesTheOverlay();
    void corruptImageKeepsPreviousState();
    void corruptCheckpointKeepsPreviousModel();
    void survivesRapidSwitches();
    void exportsPngAndCsv();

private:
    bool openAndWait(const QString& image);
    std::unique_ptr<ui::MainWindow> m_window;
    std::unique_ptr<ModelThread> m_thread;
    QTemporaryDir m_dir;
};

void TestGui::init() {
    QStandardPaths::setTestModeEnabled(true);  // recent files go to a test location
    m_window = std::make_unique<ui::MainWindow>();
    m_thread = std::make_unique<ModelThread>(*m_window);
    m_window->setShowDialogs(false);
    m_window->show();
    m_window->openCheckpoint(kModel);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->busy(), 30000);
    QCOMPARE(QString::fromStdString(m_window->model().path), kModel);
}

void TestGui::cleanup() {
    m_thread.reset();
    m_window.reset();
}

bool TestGui::openAndWait(const QString& image) {
    QSignalSpy spy(m_window.get(), &ui::MainWindow::viewUpdated);
    m_window->openImage(image);
    return spy.wait(30000);
}

void TestGui::captionMatchesCli() {
    const QString image = saveScene(m_dir, 42);
    QVERIFY(openAndWait(image));
    QProcess cli;
    cli.start(CL_CLI, {"caption", "--checkpoint", kModel, image});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    const QString expected = QString(cli.readAllStandardOutput()).trimmed();
    QVERIFY(!expected.isEmpty());
    QCOMPARE(QString::fromStdString(m_window->view().trace.text()), expected);
    QCOMPARE(m_window->captionPanel()->captionText(), expected);
}

void TestGui::attentionGridHasEveryHead() {
    QVERIFY(openAndWait(saveScene(m_dir, 7)));
    const auto& c = m_window->model().config;
    auto* panel = m_window->attentionPanel();
    QCOMPARE(panel->thumbnailCount(), int(c.numLayers * (c.numHeads + 1)));  // + average column
    for (int l = 0; l < c.numLayers; ++l)
        for (int h = 0; h < c.numHeads; ++h) {
            auto* plot = panel->thumbnail(l, h);
            QVERIFY(plot);
            const int t = int(m_window->view().trace.steps.size());
            QCOMPARE(plot->rows(), t);
            QVERIFY(plot->describeCell(0, 1).contains("masked"));  // causal mask is empty
        }
    QCOMPARE(panel->crossTileCount(), int(c.numLayers * (c.numHeads + 1)));
    QCOMPARE(panel->stripTileCount(), int(m_window->view().trace.steps.size()));
    // Clicking a thumbnail selects that head for the large view.
    QTest::mouseClick(panel->thumbnail(1, 2), Qt::LeftButton, {}, QPoint(40, 50));
    QCOMPARE(m_window->selection()->layer(), 1);
    QCOMPARE(m_window->selection()->head(), 2);
}

void TestGui::clickingAWordChangesTheOverlay() {
    QVERIFY(openAndWait(saveScene(m_dir, 3)));
    auto* panel = m_window->captionPanel();
    auto* chips = panel->chips();
    QVERIFY(chips->count() >= 4);
    QTest::mouseClick(chips->chip(0), Qt::LeftButton);
    QCOMPARE(m_window->selection()->step(), 0);
    const QImage before = panel->imageTile()->composed();
    QTest::mouseClick(chips->chip(3), Qt::LeftButton);  // the first shape word
    QCOMPARE(m_window->selection()->step(), 3);
    const QImage after = panel->imageTile()->composed();
    QCOMPARE(after.size(), before.size());
    QVERIFY(after != before);
    QVERIFY(chips->chip(3)->isChecked());
}

void TestGui::corruptImageKeepsPreviousState() {
    QVERIFY(openAndWait(saveScene(m_dir, 5)));
    const QString caption = QString::fromStdString(m_window->view().trace.text());
    const QImage image = m_window->view().image;
    QFile bad(m_dir.filePath("broken.png"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("\x89PNG\r\n\x1a\n this is not the rest of a png");
    bad.close();
    QSignalSpy errors(m_window.get(), &ui::MainWindow::errorShown);
    m_window->openImage(bad.fileName());
    QCOMPARE(errors.count(), 1);
    QVERIFY(m_window->lastError().contains("broken.png"));
    QCOMPARE(QString::fromStdString(m_window->view().trace.text()), caption);
    QCOMPARE(m_window->view().image, image);
    QCOMPARE(m_window->captionPanel()->captionText(), caption);
}

void TestGui::corruptCheckpointKeepsPreviousModel() {
    QVERIFY(openAndWait(saveScene(m_dir, 6)));
    const QString caption = QString::fromStdString(m_window->view().trace.text());
    QFile bad(m_dir.filePath("student.pt"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(QByteArray(500, 'x'));
    bad.close();
    QSignalSpy errors(m_window.get(), &ui::MainWindow::errorShown);
    m_window->openCheckpoint(bad.fileName());
    QVERIFY(errors.wait(30000));
    QVERIFY(m_window->lastError().contains("not a PyTorch zip checkpoint"));
    QCOMPARE(QString::fromStdString(m_window->model().path), kModel);
    QCOMPARE(m_window->captionPanel()->captionText(), caption);
    // The old model still works.
    QVERIFY(openAndWait(saveScene(m_dir, 6)));
    QCOMPARE(QString::fromStdString(m_window->view().trace.text()), caption);
}

void TestGui::survivesRapidSwitches() {
    QSignalSpy updates(m_window.get(), &ui::MainWindow::viewUpdated);
    for (quint64 seed = 100; seed < 150; ++seed) m_window->openRandomScene(seed);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->busy(), 60000);
    QVERIFY(updates.count() >= 1);
    QVERIFY(updates.count() < 50);  // superseded requests were dropped, not all drawn
    QCOMPARE(m_window->view().imageName, QString("scene 149"));  // the last request wins
    const QString last = saveScene(m_dir, 149);
    const QString shown = QString::fromStdString(m_window->view().trace.text());
    QVERIFY(openAndWait(last));
    QCOMPARE(QString::fromStdString(m_window->view().trace.text()), shown);
}

void TestGui::exportsPngAndCsv() {
    QVERIFY(openAndWait(saveScene(m_dir, 8)));
    QVERIFY(m_window->exportView(m_dir.filePath("view.png")));
    QVERIFY(QImage(m_dir.filePath("view.png")).width() > 400);
    QVERIFY(m_window->exportView(m_dir.filePath("view.pdf")));
    QFile pdf(m_dir.filePath("view.pdf"));
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    QVERIFY(pdf.read(5) == "%PDF-");
    QVERIFY(m_window->exportAttentionCsv(m_dir.filePath("a.csv")));
    QFile csv(m_dir.filePath("a.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const auto lines = QString(csv.readAll()).trimmed().split('\n');
    QCOMPARE(lines.size(), int(m_window->view().trace.steps.size()) + 1);
    QVERIFY(lines[0].startsWith("query\\key,<START>"));
}

QTEST_MAIN(TestGui)
#include "tst_gui.moc"
