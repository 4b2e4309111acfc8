#include "app/gui/screenshot.h"

#include "model/core/errors.h"
#include "ui/imaging/image_writer.h"
#include "ui/panels/compare_panel.h"
#include "ui/panels/scene_editor.h"
#include "ui/panels/timeline_panel.h"
#include "ui/panels/train_panel.h"
#include "ui/widgets/scene_canvas.h"
#include "ui/window/main_window.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <memory>

namespace cl {

namespace {
void printPeakRss() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("peak resident memory (RSS): %.0f MB\n", usage.ru_maxrss / 1024.0);
}

// The panel on screen has results of its own still to come after the caption.
bool waitsForComparison(ui::MainWindow* window) {
    const QString panel = window->currentPanel();
    return (panel == QLatin1String("timeline") && !window->timelinePanel()->snapshots().isEmpty()) ||
           (panel == QLatin1String("compare") && !window->comparePanel()->paths().isEmpty());
}

} // namespace

void whenPictureComplete(ui::MainWindow* window, void (ui::MainWindow::*ready)(),
                         const std::function<void()>& then) {
    QObject::connect(window, ready, window, [window, then] {
        // Compare and Timeline caption their checkpoints after the main caption: the picture
        // waits for those rows (it showed "…" in every one).
        if (waitsForComparison(window))
            QObject::connect(window, &ui::MainWindow::compared, window, then,
                             Qt::SingleShotConnection);
        else
            then();
    });
}

void scheduleScreenshot(ui::MainWindow* window, const QString& path, bool lesson) {
    window->setShowDialogs(false);
    // A lesson is on screen when all of it is back (model, input, heads, panel); else the first
    // caption is the picture.
    const auto ready = lesson ? &ui::MainWindow::lessonOpened : &ui::MainWindow::viewUpdated;
    // One failure, one line: the first error ends the run, and what follows it (a second panel
    // refusing the same file) is not printed.
    auto failed = std::make_shared<bool>(false);
    const auto fail = [window, failed](const QString& message) {
        if (*failed)
            return;
        *failed = true;
        std::fprintf(stderr, "captionlens: error: %s\n",
                     terminalSafe(message.toStdString()).c_str());
        // Queued: before exec() runs (an unreadable file named on the command line), exit()
        // would do nothing and the run would hang.
        QTimer::singleShot(0, window, [] { QApplication::exit(1); });
    };
    const auto shoot = [window, path, fail, failed] {
        QTimer::singleShot(300, window, [window, path, fail, failed] {
            if (*failed)
                return;
            // Atomic for a regular file: a failed write never leaves half a PNG behind.
            const QString error = writeImage(window->grab().toImage(), path, "png");
            if (!error.isEmpty())
                return fail(error);
            std::printf("saved %s\n", terminalSafe(path.toStdString()).c_str());
            QApplication::exit(0);
        });
    };
    whenPictureComplete(window, ready, shoot);
    QObject::connect(window, &ui::MainWindow::errorShown, window, fail);
    QTimer::singleShot(120000, window, [fail] { fail(QStringLiteral("no caption within 120 s")); });
}

void scheduleProfile(ui::MainWindow* window, int count) {
    window->setShowDialogs(false);
    // Two passes over the same scenes: the Caption panel on screen (the default), then the
    // Attention panel (the heaviest: every head's plot). Hidden panels fill when shown.
    struct State {
        QElapsedTimer timer;
        std::vector<double> ms[2];
        int next = 0, pass = 0;
        bool warm = false;
    };
    static const char* const kPanels[2] = {"caption", "attention"};
    auto state = std::make_shared<State>();
    auto openNext = [window, state] {
        state->timer.start();
        window->openRandomScene(1000 + state->next++ % 1000);
    };
    QObject::connect(window, &ui::MainWindow::viewUpdated, window, [=] {
        window->grab(); // paints the visible panel: every plot and tile on screen
        const double ms = state->timer.nsecsElapsed() / 1e6;
        auto& list = state->ms[state->pass];
        if (state->warm)
            list.push_back(ms);
        state->warm = true;
        if (int(list.size()) == count && state->pass == 0) {
            state->pass = 1;
            state->next = 0;
            state->warm = false;
            window->showPanel(kPanels[1]);
            return QTimer::singleShot(0, window, openNext);
        }
        if (int(list.size()) < count)
            return QTimer::singleShot(0, window, openNext);
        for (int p = 0; p < 2; ++p) {
            auto v = state->ms[p];
            std::sort(v.begin(), v.end());
            std::printf("image chosen -> caption + %s panel painted: median %.1f ms, min %.1f, "
                        "max %.1f (%d scenes)\n",
                        kPanels[p], v[v.size() / 2], v.front(), v.back(), count);
        }
        printPeakRss();
        QApplication::exit(0);
    });
    window->showPanel(kPanels[0]);
    QTimer::singleShot(0, window, openNext);
}

bool startProfileTraining(ui::MainWindow* window) {
    static QTemporaryDir dir; // removed when the app exits
    ui::TrainPanel* panel = window->trainPanel();
    panel->setFollowing(false);
    panel->setRunFolder(dir.filePath(QStringLiteral("run")));
    if (!dir.isValid() || !panel->startTraining()) {
        std::fprintf(stderr, "captionlens: error: cannot start training: %s\n",
                     qPrintable(panel->run()->error()));
        return false;
    }
    std::printf("training meanwhile: %s\n", qPrintable(panel->run()->folder()));
    return true;
}

void scheduleDragProfile(ui::MainWindow* window, int count) {
    window->setShowDialogs(false);
    struct State {
        QElapsedTimer timer;
        std::vector<double> ms;
        int moves = -1; // -1: waiting for the editor's first caption
        double dx = 3;
    };
    auto state = std::make_shared<State>();
    ui::SceneEditor* editor = window->sceneEditor();
    auto moveNext = [editor, state] {
        const auto& spec = editor->spec();
        if (spec.objects.empty())
            return editor->addObject();
        const auto& o = spec.objects.front();
        if (o.cx + state->dx > spec.side - o.radius || o.cx + state->dx < o.radius)
            state->dx = -state->dx; // bounce between the edges, through every relation
        state->timer.start();
        ++state->moves;
        editor->canvas()->moveObject(0, o.cx + state->dx, o.cy);
    };
    QObject::connect(window, &ui::MainWindow::viewUpdated, window, [=] {
        if (!editor->showsCurrentScene())
            return;
        if (state->moves >= 0) {
            editor->repaint(); // canvas with its attention overlay, caption, chips
            state->ms.push_back(state->timer.nsecsElapsed() / 1e6);
        } else {
            state->moves = 0;
        }
        if (int(state->ms.size()) < count)
            return QTimer::singleShot(0, window, moveNext);
        auto ms = state->ms;
        std::sort(ms.begin(), ms.end());
        std::printf("scene editor drag step -> caption + canvas attention map painted: median "
                    "%.1f ms, min %.1f, max %.1f (%d steps of %g px)\n",
                    ms[ms.size() / 2], ms.front(), ms.back(), count, std::abs(state->dx));
        printPeakRss();
        QApplication::exit(0);
    });
    // Caption the editor's scene first (showing the tab alone changes nothing on screen).
    window->showPanel(QStringLiteral("scene"));
    editor->setSpec(editor->spec());
}

} // namespace cl
