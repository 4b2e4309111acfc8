// captionlens-cli: caption, inspect, convert, generate, train, evaluate and benchmark models.
#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "model/core/errors.h"

#include "model/api/threads.h"

#include <CLI/CLI.hpp>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QLoggingCategory>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <thread>

namespace {

// QImageReader plugins need an application object; painting text (export-anim's frames) needs
// fonts, so a Qt GUI application there, on the offscreen platform unless one is chosen.
std::unique_ptr<QCoreApplication> application(int& argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "export-anim") == 0) {
            if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            // Errors stay one line of ours: not Qt's note that XDG_RUNTIME_DIR is unset.
            qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& m) {
                if (type != QtDebugMsg && !m.startsWith(QLatin1String("QStandardPaths:")))
                    std::fprintf(stderr, "%s\n", qPrintable(m));
            });
            return std::make_unique<QGuiApplication>(argc, argv);
        }
    return std::make_unique<QCoreApplication>(argc, argv);
}

} // namespace

int main(int argc, char** argv) {
    const auto qapp = application(argc, argv);
    // Errors are one line of ours: Qt's image readers would add their own warning lines.
    QLoggingCategory::setFilterRules(QStringLiteral("qt.gui.imageio.warning=false"));
    CLI::App app{"CaptionLens command-line tool: caption images or feature rows with a "
                 "captioning transformer and inspect its attention."};
    app.require_subcommand(1);
    app.set_version_flag("--version", "captionlens-cli " CL_VERSION);
    int threads = 0; // 0 = all cores; more than four threads a core only slows everything down
    cl::cli::addThreadsOption(app, threads);
    app.parse_complete_callback([&] { cl::setThreadCount(threads); });
    cl::cli::addCaptionCommand(app);
    cl::cli::addInfoCommand(app);
    cl::cli::addImportCommand(app);
    cl::cli::addSceneCommand(app);
    cl::cli::addTrainCommand(app);
    cl::cli::addEvalCommand(app);
    cl::cli::addBenchCommand(app);
    cl::cli::addCalibrateCommand(app);
    cl::cli::addExplainCommand(app);
    cl::cli::addQkCommand(app);
    cl::cli::addLensCommand(app);
    cl::cli::addPatchCommand(app);
    cl::cli::addExportHtmlCommand(app);
    cl::cli::addExportAnimCommand(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) // --help, --version
            return app.exit(e);
        // Like every other failure: one line, so scripts and people read it the same way.
        std::fprintf(stderr, "captionlens-cli: error: %s (see --help)\n",
                     cl::terminalSafe(e.what()).c_str());
        return e.get_exit_code();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "captionlens-cli: error: %s\n",
                     cl::terminalSafe(cl::errorLine(e)).c_str());
        return 1;
    } catch (...) {
        std::fprintf(stderr, "captionlens-cli: error: unexpected failure\n");
        return 1;
    }
    return 0;
}
