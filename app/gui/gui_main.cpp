// captionlens: the desktop app. Starts on the bundled model and a sample image.
#include "app/gui/screenshot.h"
#include "app/gui/wiring.h"
#include "model/api/threads.h"
#include "ui/panels/compare_panel.h"
#include "ui/panels/scene_editor.h"
#include "ui/window/background.h"
#include "ui/window/language.h"
#include "ui/window/main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QSettings>

#include <algorithm>
#include <cstdio>
#include <thread>

namespace {

// Installed, <prefix>/bin/captionlens finds <prefix>/share/captionlens; in the build tree,
// <build>/app/gui/captionlens finds <build>/share/captionlens (a link to resources/ that CMake
// makes). CAPTIONLENS_DATA overrides both. Never the source path, so an install is relocatable.
QString findResourceDir() {
    const QString env = qEnvironmentVariable("CAPTIONLENS_DATA");
    if (!env.isEmpty())
        return env;
    const QDir bin(QCoreApplication::applicationDirPath());
    for (const QString rel : {"../share/captionlens", "../../share/captionlens"})
        if (QFileInfo::exists(bin.filePath(rel + "/models/default.pt")))
            return QDir::cleanPath(bin.filePath(rel));
    return {};
}

struct Options {
    QCommandLineOption checkpoint{"checkpoint", "Checkpoint to load (default: the bundled model)",
                                  "file"};
    QCommandLineOption screenshot{"screenshot",
                                  "Save the window to this PNG after captioning and exit", "png"};
    QCommandLineOption panel{"panel",
                             "Panel to show: caption, attention, pe, decode, heads, beam, explain, "
                             "circuits, compare, timeline, scene or train",
                             "name", "caption"};
    QCommandLineOption profile{"profile", "Print image-to-painted latency over N scenes and exit",
                               "n"};
    QCommandLineOption threads{"threads", "CPU threads for the model (default: all)", "n", "0"};
    QCommandLineOption presenter{"presenter", "Start in presenter mode (large fonts, F11 toggles)"};
    QCommandLineOption compare{"compare", "Add a checkpoint to the Compare panel (repeat)", "file"};
    QCommandLineOption timeline{"timeline", "Open a folder of training snapshots", "dir"};
    QCommandLineOption profileDrag{
        "profile-drag", "Print scene-editor drag-to-painted latency over N steps and exit", "n"};
    QCommandLineOption whileTraining{
        "while-training", "With --profile-drag: a lecture-preset training run (Train panel) goes "
                          "on meanwhile, into a temporary folder"};
    QCommandLineOption features{"features", "Caption a row of this feature file (.npy or .h5)",
                                "file"};
    QCommandLineOption row{"row", "The row of --features to caption (default 0)", "i", "0"};
    QCommandLineOption courseData{"course-data",
                                  "Open the course's coco_captioning folder in the browser", "dir"};
    QCommandLineOption language{"language",
                                "Interface language: en or ko (default: the last one chosen in "
                                "View > Language, else the system's)",
                                "code"};

    void describe(QCommandLineParser& parser) const {
        parser.setApplicationDescription("See inside an image-captioning transformer.");
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addPositionalArgument(
            "image", "Image to caption, or a .cllesson (default: a bundled sample)");
        parser.addOptions({checkpoint, screenshot, panel, profile, threads, presenter, compare,
                           timeline, profileDrag, whileTraining, features, row, courseData,
                           language});
    }
};

void nameApplication() {
    QCoreApplication::setApplicationName("CaptionLens");
    QCoreApplication::setOrganizationName("CaptionLens");
    QCoreApplication::setApplicationVersion(CL_VERSION);
}

// --help and --version answer without a display (help2man, a terminal over ssh).
void answerHelpOrVersion(int argc, char** argv, const Options& o) {
    for (int i = 1; i < argc; ++i) {
        const QByteArray a = argv[i];
        if (a == "--help" || a == "-h" || a == "--help-all" || a == "--version" || a == "-v") {
            QCoreApplication core(argc, argv);
            nameApplication();
            QCoreApplication::setApplicationName("captionlens");
            QCommandLineParser parser;
            o.describe(parser);
            parser.process(core); // prints and exits
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    const Options o;
    answerHelpOrVersion(argc, argv, o);
    QApplication app(argc, argv);
    // Background reads and saves are asked to stop and joined before `app` goes (whichever way
    // main returns; the window, declared later, goes first).
    struct JoinBackgroundWork {
        ~JoinBackgroundWork() { cl::ui::joinBackgroundWork(); }
    } joinAtExit;
    nameApplication();
    QCommandLineParser parser;
    o.describe(parser);
    parser.process(app);
    bool counted = false;
    const int threads = parser.value(o.threads).toInt(&counted);
    const int maxThreads = 4 * int(std::max(1u, std::thread::hardware_concurrency()));
    if (!counted || threads < 0 || threads > maxThreads) {
        std::fprintf(stderr, "captionlens: error: --threads must be 0 (all cores) to %d\n",
                     maxThreads);
        return 1;
    }
    cl::setThreadCount(threads);

    // The language before the window: its texts are made in it.
    const QString saved = parser.isSet(o.language)
                              ? parser.value(o.language)
                              : QSettings().value(QStringLiteral("language")).toString();
    if (parser.isSet(o.language) && !cl::ui::interfaceLanguages().contains(saved)) {
        std::fprintf(stderr, "captionlens: error: --language must be one of %s\n",
                     qPrintable(cl::ui::interfaceLanguages().join(", ")));
        return 1;
    }
    cl::ui::installLanguage(
        cl::ui::interfaceLanguages().contains(saved) ? saved : cl::ui::systemLanguage());

    const QString resources = findResourceDir();
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("captionlens"),
                                                 QIcon(resources + "/desktop/captionlens.svg")));
    cl::ui::MainWindow window;
    window.setResourceDir(resources);
    cl::ModelThread modelThread(window);
    window.show();
    if (parser.isSet(o.presenter))
        window.setPresenterMode(true);
    const QString model =
        parser.isSet(o.checkpoint) ? parser.value(o.checkpoint) : resources + "/models/default.pt";
    const auto args = parser.positionalArguments();
    const bool lesson = !args.isEmpty() && args.first().endsWith(".cllesson", Qt::CaseInsensitive);
    if (parser.isSet(o.screenshot))
        cl::scheduleScreenshot(&window, parser.value(o.screenshot), lesson);
    window.openCheckpoint(model);
    window.comparePanel()->setCurrentModel(model); // --compare C: this model against C
    if (lesson) {
        // What the command line says wins over what the lesson says.
        cl::ui::MainWindow::LessonOverrides overrides;
        if (parser.isSet(o.checkpoint))
            overrides.checkpoint = model;
        if (parser.isSet(o.panel))
            overrides.panel = parser.value(o.panel);
        overrides.compare = parser.values(o.compare);
        window.openLesson(args.first(), overrides);
        return app.exec();
    }
    window.showPanel(parser.value(o.panel)); // after the checkpoint: the editor captions at once
    if (parser.isSet(o.compare))
        window.comparePanel()->addPaths(parser.values(o.compare));
    if (parser.isSet(o.timeline) && !window.openRunFolder(parser.value(o.timeline)))
        return 1;
    if (parser.isSet(o.courseData))
        window.openCourseData(parser.value(o.courseData));
    if (parser.isSet(o.profile)) {
        cl::scheduleProfile(&window, std::max(1, parser.value(o.profile).toInt()));
    } else if (parser.isSet(o.profileDrag)) {
        if (parser.isSet(o.whileTraining) && !cl::startProfileTraining(&window))
            return 1;
        cl::scheduleDragProfile(&window, std::max(1, parser.value(o.profileDrag).toInt()));
    } else if (parser.isSet(o.features)) {
        bool ok = false;
        const int row = parser.value(o.row).toInt(&ok);
        if (!ok || row < 0) {
            std::fprintf(stderr, "captionlens: error: --row must be a row number, not '%s'\n",
                         qPrintable(parser.value(o.row)));
            return 1;
        }
        window.openFeatures(parser.value(o.features), row);
    } else if (!args.isEmpty()) {
        window.openImage(args.first());
    } else if (parser.isSet(o.courseData)) {
        // The folder's first image is captioned once it is listed and the model is in.
    } else if (parser.value(o.panel) == QLatin1String("scene")) {
        window.showPanel(QStringLiteral("scene")); // the scene editor shows its own scene
        window.sceneEditor()->setSpec(window.sceneEditor()->spec());
    } else if (QFileInfo::exists(resources + "/samples/two-shapes.png")) {
        window.openImage(resources + "/samples/two-shapes.png");
    } else {
        window.openRandomScene(2);
    }
    return app.exec();
}
