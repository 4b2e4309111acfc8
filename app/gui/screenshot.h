#pragma once
// --screenshot and --profile: drive the window, then save a PNG or print timings, and quit.
#include <QString>

#include <functional>

namespace cl::ui {
class MainWindow;
}

namespace cl {

// Calls `then` after each `ready` of the window (a caption, a lesson) once the panel on screen
// has all of its results: Compare's and Timeline's rows come after the caption.
void whenPictureComplete(ui::MainWindow* window, void (ui::MainWindow::*ready)(),
                         const std::function<void()>& then);
// Saves the window to `path` once the first caption is on screen (and the panel's comparison,
// if it has one); exit code 1 on an error.
void scheduleScreenshot(ui::MainWindow* window, const QString& path, bool lesson = false);
// Opens `count` generated scenes one after another and prints the time from "image chosen" to
// the visible panel painted (median, min, max), with the Caption and then the Attention panel.
void scheduleProfile(ui::MainWindow* window, int count);
// Drags a shape across the scene editor's canvas in `count` mouse-move steps and prints the time
// from each move to the new caption and the editor and attention maps painted.
void scheduleDragProfile(ui::MainWindow* window, int count);
// Starts a lecture-preset training run into a temporary folder (removed at exit), snapshots not
// followed, so the drag profile measures the editor while the model trains.
bool startProfileTraining(ui::MainWindow* window);

} // namespace cl
