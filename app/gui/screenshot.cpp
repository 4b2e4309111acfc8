#include "screenshot.h"

#include "main_window.h"
#include "scene_canvas.h"
#include "scene_editor.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSaveFile>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <memory>

namespace cl {

void scheduleScreenshot(ui::MainWindow* window, const QString& path) {
    window->setShowDialogs(false);
    QObject::connect(window, &ui::MainWindow::viewUpdated, window, [window, path] {
        QTimer::singleShot(300, window, [window, path] {
            QSaveFile file(path); // a failed write never leaves half a PNG behind
            const bool ok = file.open(QIODevice::WriteOnly) &&
                            window->grab().save(&file, "PNG") && file.commit();
            std::fprintf(ok ? stdout : stderr,
                         ok ? "saved %s\n" : "captionlens: error: cannot write %s\n",
                         qPrintable(path));
            QApplication::exit(ok ? 0 : 1);
        });
    });
    QObject::connect(window, &ui::MainWindow::errorShown, window, [](const QString& message) {
        std::fprintf(stderr, "captionlens: error: %s\n", qPrintable(message));
        QApplication::exit(1);
    });
    QTimer::singleShot(120000, window, [] {
        std::fprintf(stderr, "captionlens: error: no caption within 120 s\n");
        QApplication::exit(1);
    });
}

void scheduleProfile(ui::MainWindow* window, int count) {
    window->setShowDialogs(false);
    struct State {
        QElapsedTimer timer;
        std::vector<double> ms;
        int next = 0;
        bool warm = false;
    };
    auto state = std::make_shared<State>();
    auto openNext = [window, state] {
        state->timer.start();
        window->openRandomScene(1000 + state->next++);
    };
    QObject::connect(window, &ui::MainWindow::viewUpdated, window, [=] {
        // Paint everything now (both panels, every plot) before stopping the clock.
        for (const QString panel : {"attention", "caption"}) {
            window->showPanel(panel);
            window->grab();
        }
        const double ms = state->timer.nsecsElapsed() / 1e6;
        if (state->warm)
            state->ms.push_back(ms);
        state->warm = true;
        if (int(state->ms.size()) < count)
            return QTimer::singleShot(0, window, openNext);
        std::sort(state->ms.begin(), state->ms.end());
        std::printf(
            "image chosen -> caption + all panels painted: median %.1f ms, min %.1f, max %.1f "
            "(%d scenes, both panels rendered)\n",
            state->ms[state->ms.size() / 2], state->ms.front(), state->ms.back(), count);
        QApplication::exit(0);
    });
    QTimer::singleShot(0, window, openNext);
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
        QApplication::exit(0);
    });
    // Caption the editor's scene first (it is the panel on screen from the start).
    window->showPanel(QStringLiteral("scene"));
}

} // namespace cl
