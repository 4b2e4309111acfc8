#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "model/shapes/scene.h"
#include "ui/imaging/image_loader.h"
#include "ui/imaging/image_writer.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <QImage>

#include <iostream>
#include <stdexcept>

namespace cl::cli {

namespace {

nlohmann::json groundTruth(const Scene& s, uint64_t seed) {
    auto objects = nlohmann::json::array();
    for (size_t i = 0; i < s.spec.objects.size(); ++i) {
        const auto& o = s.spec.objects[i];
        const auto b = o.box();
        int64_t area = 0;
        for (auto m : s.masks[i])
            area += m;
        objects.push_back({{"shape", shapeName(o.shape)},
                           {"colour", colourName(o.colour)},
                           {"size", sizeName(o.size)},
                           {"centre", {o.cx, o.cy}},
                           {"radius", o.radius},
                           {"angle", o.angle},
                           {"fill", o.fill == Fill::Solid      ? "solid"
                                    : o.fill == Fill::Bordered ? "bordered"
                                                               : "outline"},
                           {"box", {b.x0, b.y0, b.x1, b.y1}},
                           {"mask_pixels", area}});
    }
    return {{"seed", seed},
            {"width", s.spec.width()},
            {"height", s.spec.height()},
            {"objects", objects},
            {"captions", s.captions}};
}

} // namespace

// PNG unless the name asks for another format we write (.jpg, .bmp, .ppm: test corpora); a
// suffix we cannot write (x.svg) is refused rather than filled with PNG bytes.
void saveRgbPng(const RgbImage& rgb, const std::string& path) {
    const QString name = QString::fromStdString(path);
    const QByteArray format = imageFormatFor(name);
    if (format.isEmpty())
        throw std::runtime_error("cannot write " + path +
                                 ": images are written as .png, .jpg, .bmp or .ppm");
    const QString error = writeImage(toQImage(rgb), name, format);
    if (!error.isEmpty())
        throw std::runtime_error(error.toStdString());
}

void addSceneCommand(CLI::App& app) {
    static uint64_t seed = 0;
    static int side = 128;
    static std::string out;
    static bool json = false;
    static std::string world = "classic";
    auto* cmd =
        app.add_subcommand("scene", "Write one shapes-world scene and print its ground truth");
    cmd->add_option("--seed", seed, "Scene seed")->required();
    cmd->add_option("--size", side, "Image side in pixels")
        ->check(CLI::Range(32, 1024))
        ->capture_default_str();
    cmd->add_option("-o,--out", out, "Output image (.png, .jpg, .bmp, .ppm; - for standard output)")
        ->required();
    addJsonFlag(cmd, json, "Print the ground truth as JSON");
    cmd->add_option("--world", world,
                     "classic: the editor's world; varied: the shipped models' training world "
                     "(any canvas, style and look; --size does not apply)")
        ->check(CLI::IsMember({"classic", "varied"}))
        ->capture_default_str();
    cmd->callback([] {
        const Scene s = world == "varied" ? generateVariedScene(seed) : generateScene(seed, side);
        saveRgbPng({s.spec.width(), s.spec.height(), s.rgb}, out);
        // With -o - the image is standard output; the ground truth goes to standard error.
        std::ostream& text = out == "-" ? std::cerr : std::cout;
        if (json) {
            text << groundTruth(s, seed).dump(2) << "\n";
            return;
        }
        for (const auto& c : s.captions)
            text << c << "\n";
    });
}

} // namespace cl::cli
