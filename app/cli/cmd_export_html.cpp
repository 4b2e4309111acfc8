// captionlens-cli export-html: one self-contained interactive web page of an image's caption
// (issue 40): the caption's words, cross-attention over the image per layer and head, the
// self-attention of every head, greedy decoding step by step, the positional encoding.
#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "app/common/web_page.h"
#include "model/api/captioner.h"
#include "model/core/files.h"
#include "model/shapes/scene.h"
#include "ui/imaging/image_loader.h"
#include "ui/imaging/image_writer.h"
#include "ui/lessons/lesson.h"

#include <CLI/CLI.hpp>

#include <QFileInfo>

#include <stdexcept>
#include <vector>

namespace cl::cli {

namespace {

struct ExportHtmlOptions {
    std::string image, checkpoint, lesson, out;
    int64_t word = 0, layer = -1, head = -1;
};

// What the page shows: an image file, or a lesson's input with its checkpoint, word, layer,
// head, switched-off heads and panel.
struct PageSource {
    QImage image;
    std::string name, checkpoint, panel;
    int64_t word = 0, layer = -1, head = -1;
    std::vector<uint8_t> headsOff;
};

PageSource fromLesson(const std::string& path) {
    const ui::Lesson l =
        ui::readLesson(QString::fromStdString(path), QString::fromStdString(bundledData()));
    PageSource s;
    if (l.input == ui::Lesson::Input::Scene) {
        const Scene scene = renderScene(l.scene);
        s.image = toQImage({l.scene.width(), l.scene.height(), scene.rgb});
        s.name = "scene";
    } else if (l.input == ui::Lesson::Input::Image) {
        s.image = l.image;
        s.name = l.imageName.toStdString();
    } else {
        throw std::invalid_argument(
            "a web page shows an image; the lesson's input is " +
            std::string(l.input == ui::Lesson::Input::Features ? "a feature row" : "missing"));
    }
    s.checkpoint = l.checkpoint.toStdString();
    s.panel = l.panel.toStdString();
    s.word = l.step;
    s.layer = l.layer;
    s.head = l.head;
    s.headsOff = l.headsOff;
    return s;
}

PageSource fromImage(const ExportHtmlOptions& o) {
    const LoadedImage loaded = loadImage(QString::fromStdString(o.image));
    if (!loaded.ok())
        throw std::runtime_error(loaded.error.toStdString());
    PageSource s;
    s.image = loaded.image;
    s.name = QFileInfo(QString::fromStdString(o.image)).fileName().toStdString();
    s.word = o.word;
    s.layer = o.layer;
    s.head = o.head;
    return s;
}

void runExportHtml(const ExportHtmlOptions& o) {
    if (o.image.empty() == o.lesson.empty())
        throw std::invalid_argument("export-html takes an image or --lesson, one of them");
    const PageSource src = o.lesson.empty() ? fromImage(o) : fromLesson(o.lesson);
    const std::string checkpoint = !o.checkpoint.empty()     ? o.checkpoint
                                   : !src.checkpoint.empty() ? src.checkpoint
                                                             : bundledModel();
    auto model = Captioner::open(checkpoint);
    if (model->info().config.memory != MemoryKind::ImageGrid)
        throw std::invalid_argument("a web page shows an image: " + checkpoint +
                                    " reads feature vectors");
    const LoadedImage pixels = fromQImage(src.image); // as the app sees it (alpha on white)
    if (!pixels.ok())
        throw std::runtime_error(pixels.error.toStdString());
    DecodeOptions d;
    d.maxLength = model->info().config.maxLength;
    d.headsOff = src.headsOff;
    WebPageInput in;
    in.trace = model->captionImages({pixels.rgb}, d).front();
    in.model = model->info();
    in.png = encodeImage(pixels.image, "png").toStdString();
    in.imageWidth = pixels.image.width();
    in.imageHeight = pixels.image.height();
    in.name = src.name;
    in.step = src.word;
    in.layer = src.layer;
    in.head = src.head;
    in.focus = src.panel;
    files::write(o.out, webPage(in));
}

} // namespace

void addExportHtmlCommand(CLI::App& app) {
    static ExportHtmlOptions o;
    auto* cmd = app.add_subcommand(
        "export-html", "One self-contained interactive web page of an image's caption: attention "
                       "per word, layer and head, decoding step by step, the positional encoding");
    cmd->add_option("image", o.image, "Image file (or --lesson)");
    cmd->add_option("--lesson", o.lesson,
                    "A lesson (.cllesson): its input, checkpoint, word, layer, head and panel");
    addCheckpointOption(cmd, o.checkpoint, "Checkpoint file (default: the bundled model)");
    cmd->add_option("-o,--out", o.out, "The page to write (.html)")->required();
    cmd->add_option("--word", o.word, "The word the page opens on (0 first)")
        ->capture_default_str();
    cmd->add_option("--layer", o.layer, "The layer it opens on (0 first; -1: the last)")
        ->capture_default_str();
    cmd->add_option("--head", o.head, "The head it opens on (0 first; -1: the head average)")
        ->capture_default_str();
    cmd->callback([] { runExportHtml(o); });
}

} // namespace cl::cli
