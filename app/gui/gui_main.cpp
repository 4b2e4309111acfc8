// captionlens: the desktop app. Starts on the bundled model and a sample image.
#include "app/gui/screenshot.h"
#include "app/gui/wiring.h"
#include "model/api/threads.h"
#include "ui/panels/compare_panel.h"
#include "ui/window/main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>

namespace {

QString resourcePath(const QString& relative) {
    // Next to the executable when installed, else the source tree's resources/.
    const QString installed =
        QCoreApplication::applicationDirPath() + "/../share/captionlens/" + relative;
    return QFileInfo::exists(installed) ? installed
                                        : QStringLiteral(CL_RESOURCE_DIR "/") + relative;
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("CaptionLens");
    QApplication::setOrganizationName("CaptionLens");
    QCommandLineParser parser;
    parser.setApplicationDescription("See inside an image-captioning transformer.");
    parser.addHelpOption();
    parser.addPositionalArgument("image",
                                 "Image to caption, or a .cllesson (default: a bundled sample)");
    const QCommandLineOption checkpoint("checkpoint",
                                        "Checkpoint to load (default: the bundled model)", "file");
    const QCommandLineOption screenshot(
        "screenshot", "Save the window to this PNG after captioning and exit", "png");
    const QCommandLineOption panel(
        "panel", "Panel to show: caption, attention, pe, decode, heads, compare, timeline or scene",
        "name", "caption");
    const QCommandLineOption profile("profile",
                                     "Print image-to-painted latency over N scenes and exit", "n");
    const QCommandLineOption threads("threads", "CPU threads for the model (default: all)", "n",
                                     "0");
    const QCommandLineOption presenter("presenter",
                                       "Start in presenter mode (large fonts, F11 toggles)");
    const QCommandLineOption compare("compare", "Add a checkpoint to the Compare panel (repeat)",
                                     "file");
    const QCommandLineOption timeline("timeline", "Open a folder of training snapshots", "dir");
    const QCommandLineOption profileDrag(
        "profile-drag", "Print scene-editor drag-to-painted latency over N steps and exit", "n");
    parser.addOptions({checkpoint, screenshot, panel, profile, threads, presenter, compare,
                       timeline, profileDrag});
    parser.process(app);
    cl::setThreadCount(parser.value(threads).toInt());

    cl::ui::MainWindow window;
    cl::ModelThread modelThread(window);
    if (parser.isSet(screenshot))
        cl::scheduleScreenshot(&window, parser.value(screenshot));
    window.show();
    if (parser.isSet(presenter))
        window.setPresenterMode(true);
    window.openCheckpoint(parser.isSet(checkpoint) ? parser.value(checkpoint)
                                                   : resourcePath("models/default.pt"));
    window.showPanel(parser.value(panel)); // after the checkpoint: the editor captions at once
    if (parser.isSet(compare))
        window.comparePanel()->addPaths(parser.values(compare));
    if (parser.isSet(timeline) && !window.openRunFolder(parser.value(timeline)))
        return 1;
    const auto args = parser.positionalArguments();
    if (parser.isSet(profile)) {
        cl::scheduleProfile(&window, std::max(1, parser.value(profile).toInt()));
    } else if (parser.isSet(profileDrag)) {
        cl::scheduleDragProfile(&window, std::max(1, parser.value(profileDrag).toInt()));
    } else {
        if (!args.isEmpty() && args.first().endsWith(".cllesson", Qt::CaseInsensitive))
            window.openLesson(args.first());
        else if (!args.isEmpty())
            window.openImage(args.first());
        else if (parser.value(panel) == QLatin1String("scene"))
            ; // the scene editor captions its own scene
        else if (QFileInfo::exists(resourcePath("samples/two-shapes.png")))
            window.openImage(resourcePath("samples/two-shapes.png"));
        else
            window.openRandomScene(2);
    }
    return app.exec();
}
