// captionlens-cli export-html: one self-contained interactive web page of an image's caption
// (issue 40): the caption's words, cross-attention over the image per layer and head, the
// self-attention of every head, greedy decoding step by step, the positional encoding.
#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "app/common/web_page.h"
#include "model/api/captioner.h"
#include "model/core/files.h"
#include "ui/imaging/image_loader.h"

#include <CLI/CLI.hpp>

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <stdexcept>

namespace cl::cli {

namespace {

struct ExportHtmlOptions {
    std::string image, checkpoint, out;
    int64_t word = 0, layer = -1, head = -1;
};

// The bundled model, found as the app finds it: $CAPTIONLENS_DATA, else share/captionlens beside
// the program (installed) or in the build tree.
std::string bundledModel() {
    const QString env = qEnvironmentVariable("CAPTIONLENS_DATA");
    const QDir bin(QCoreApplication::applicationDirPath());
    for (const QString& dir : {env, bin.filePath("../share/captionlens"),
                               bin.filePath("../../share/captionlens")})
        if (!dir.isEmpty() && QFileInfo::exists(dir + "/models/default.pt"))
            return QDir::cleanPath(dir + "/models/default.pt").toStdString();
    throw std::runtime_error("no bundled model found next to the program: pass --checkpoint");
}

void runExportHtml(const ExportHtmlOptions& o) {
    const LoadedImage loaded = loadImage(QString::fromStdString(o.image));
    if (!loaded.ok())
        throw std::runtime_error(loaded.error.toStdString());
    auto model = Captioner::open(o.checkpoint.empty() ? bundledModel() : o.checkpoint);
    if (model->info().config.memory != MemoryKind::ImageGrid)
        throw std::invalid_argument("a web page shows an image: " + o.checkpoint +
                                    " reads feature vectors");
    DecodeOptions d;
    d.maxLength = model->info().config.maxLength;
    WebPageInput in;
    in.trace = model->captionImages({loaded.rgb}, d).front();
    in.model = model->info();
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    loaded.image.save(&buffer, "PNG");
    in.png = png.toStdString();
    in.imageWidth = loaded.image.width();
    in.imageHeight = loaded.image.height();
    in.name = QFileInfo(QString::fromStdString(o.image)).fileName().toStdString();
    in.step = o.word;
    in.layer = o.layer;
    in.head = o.head;
    files::write(o.out, webPage(in));
}

} // namespace

void addExportHtmlCommand(CLI::App& app) {
    static ExportHtmlOptions o;
    auto* cmd = app.add_subcommand(
        "export-html", "One self-contained interactive web page of an image's caption: attention "
                       "per word, layer and head, decoding step by step, the positional encoding");
    cmd->add_option("image", o.image, "Image file")->required();
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
