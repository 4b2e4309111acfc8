#include "app/cli/options.h"

#include <CLI/CLI.hpp>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <stdexcept>
#include <thread>

namespace cl::cli {

CLI::Option* addCheckpointOption(CLI::App* cmd, std::string& path, const std::string& what) {
    return cmd->add_option("--checkpoint", path, what);
}

CLI::Option* addDeviceOption(CLI::App* cmd, std::string& device) {
    return cmd->add_option("--device", device, "cpu or cuda")
        ->check(CLI::IsMember({"cpu", "cuda"}))
        ->capture_default_str();
}

CLI::Option* addJsonFlag(CLI::App* cmd, bool& json, const std::string& what) {
    return cmd->add_flag("--json", json, what);
}

CLI::Option* addThreadsOption(CLI::App& app, int& threads) {
    const int most = 4 * int(std::max(1u, std::thread::hardware_concurrency()));
    return app.add_option("--threads", threads, "CPU threads for LibTorch (default: all cores)")
        ->check(CLI::Range(0, most));
}

std::string bundledData() {
    const QString env = qEnvironmentVariable("CAPTIONLENS_DATA");
    const QDir bin(QCoreApplication::applicationDirPath());
    for (const QString& dir :
         {env, bin.filePath("../share/captionlens"), bin.filePath("../../share/captionlens")})
        if (!dir.isEmpty() && QFileInfo::exists(dir + "/models/default.pt"))
            return QDir::cleanPath(dir).toStdString();
    return {};
}

std::string bundledModel() {
    const std::string dir = bundledData();
    if (dir.empty())
        throw std::runtime_error("no bundled model found next to the program: pass --checkpoint");
    return dir + "/models/default.pt";
}

} // namespace cl::cli
