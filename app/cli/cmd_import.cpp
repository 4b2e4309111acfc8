#include "app/cli/commands.h"
#include "app/common/vocab_json.h"
#include "model/evaluation/checkpoint_tools.h"
#include "model/core/errors.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

namespace cl::cli {

namespace {

struct ImportOptions {
    std::string input, vocab, out, layout = "auto", heads, data;
    int64_t headsDefault = 2;
    double tolerancePercent = 2;
    int64_t steps = 0;
};

constexpr int64_t kAutoImages = 150; // val images --heads auto scores each count on

// --heads auto with --data: the table of every divisor of the width, and the choice (with how it
// was made, for the file's metadata).
int64_t autoHeads(const CourseImport& import, const ImportOptions& o, std::string* note) {
    const HeadCountChoice c =
        chooseHeadCount(import, o.data, kAutoImages, o.headsDefault, o.tolerancePercent / 100);
    std::printf("heads  loss (first %lld val images)\n", static_cast<long long>(c.images));
    for (const auto& s : c.scores)
        std::printf("%5lld  %.6f%s%s\n", static_cast<long long>(s.heads), s.loss,
                    s.heads == c.best ? "  best" : "",
                    s.heads == c.chosen ? (c.decided ? "  <- chosen" : "  <- kept") : "");
    char text[200];
    if (c.decided)
        std::snprintf(text, sizeof text,
                      "chosen by --heads auto: the fewest heads within %g%% of the best loss on "
                      "%lld val images",
                      o.tolerancePercent, static_cast<long long>(c.images));
    else
        std::snprintf(text, sizeof text,
                      "kept by --heads auto (--heads-default): every count was within %g%% of "
                      "the best loss on %lld val images",
                      o.tolerancePercent, static_cast<long long>(c.images));
    *note = text;
    if (c.decided)
        std::printf("--heads auto: %lld, the fewest heads whose loss is within %g%% of the best\n",
                    static_cast<long long>(c.chosen), o.tolerancePercent);
    else
        std::printf("--heads auto: the data cannot decide (every head count's loss is within "
                    "%g%% of the best); kept %lld (--heads-default)\n",
                    o.tolerancePercent, static_cast<long long>(c.chosen));
    return c.chosen;
}

int64_t headCount(const std::string& text) {
    char* end = nullptr;
    const long long n = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || n < 1 || n > 4096)
        throw std::invalid_argument("--heads: '" + text + "' is neither auto nor a head count");
    return n;
}

void runImport(const ImportOptions& o) {
    CourseImport import;
    import.input = o.input;
    import.vocab = readVocabJson(o.vocab);
    const bool automatic = o.heads == "auto";
    if (automatic && o.data.empty())
        throw std::invalid_argument("--heads auto needs the course data (--data DIR) to score "
                                    "each head count on");
    if (!o.data.empty() && !automatic)
        throw std::invalid_argument("--data is only used by --heads auto");
    import.heads = automatic ? o.headsDefault : o.heads.empty() ? 2 : headCount(o.heads);
    import.layout = o.layout;
    import.output = o.out;
    import.steps = o.steps;
    import.headsNote = o.heads.empty() ? "assumed: the notebook's 2 (not checked)"
                                       : "given by --heads";
    if (automatic)
        import.heads = autoHeads(import, o, &import.headsNote);
    else if (o.heads.empty())
        std::cerr << "WARNING: the head count is unchecked: a state_dict does not record it, so "
                     "this import assumes the notebook's 2. A wrong count keeps most captions "
                     "but draws wrong attention maps; check it with --heads auto --data DIR.\n";
    const ImportReport report = importCourseCheckpoint(import);
    for (const auto& n : report.notes)
        std::cerr << "note: " << terminalSafe(n) << "\n";
    for (const auto& w : report.warnings)
        std::cerr << "warning: " << terminalSafe(w) << "\n";
    const ModelConfig& c = report.config;
    std::cout << "wrote " << terminalSafe(o.out) << ": layout " << layoutName(c.layout) << ", " << c.numLayers
              << " layers, " << c.numHeads << " heads, width " << c.wordvecDim << ", vocabulary "
              << c.vocabSize << "\n";
}

} // namespace

void addImportCommand(CLI::App& app) {
    static ImportOptions o;
    auto* cmd = app.add_subcommand(
        "import-cs231n", "Convert a course state_dict (torch.save(model.state_dict())) to ours");
    cmd->add_option("state_dict", o.input, "The course .pt file")->required();
    cmd->add_option("--vocab", o.vocab, "coco2014_vocab.json")->required();
    cmd->add_option("--heads", o.heads,
                    "Attention heads (not stored in a state_dict; the notebook uses 2), or auto: "
                    "score each on the course data (--data)");
    cmd->add_option("--heads-default", o.headsDefault,
                    "With --heads auto: the count kept when every count fits (the data cannot "
                    "decide)")
        ->check(CLI::Range(1, 4096))
        ->capture_default_str();
    cmd->add_option("--heads-tolerance", o.tolerancePercent,
                    "With --heads auto: a count fits when its loss is within this many percent "
                    "of the best; the fewest heads that fit are taken")
        ->check(CLI::Range(0.0, 100.0))
        ->capture_default_str();
    cmd->add_option("--data", o.data, "With --heads auto: the course's coco_captioning folder");
    cmd->add_option("--layout", o.layout, "Key layout: auto, 2021 or 2025")
        ->check(CLI::IsMember({"auto", "2021", "2025"}))
        ->capture_default_str();
    cmd->add_option("-o,--out", o.out, "Output checkpoint")->required();
    cmd->add_option("--steps", o.steps, "Training steps behind this state_dict (for the timeline)")
        ->check(CLI::NonNegativeNumber);
    cmd->callback([] { runImport(o); });
}

} // namespace cl::cli
