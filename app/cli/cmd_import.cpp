#include "app/cli/commands.h"
#include "app/common/vocab_json.h"
#include "model/api/checkpoint_tools.h"

#include <CLI/CLI.hpp>

#include <iostream>

namespace cl::cli {

namespace {

struct ImportOptions {
    std::string input, vocab, out, layout = "auto";
    int64_t heads = 2;
    int64_t steps = 0;
};

void runImport(const ImportOptions& o) {
    CourseImport import;
    import.input = o.input;
    import.vocab = readVocabJson(o.vocab);
    import.heads = o.heads;
    import.layout = o.layout;
    import.output = o.out;
    import.steps = o.steps;
    const ImportReport report = importCourseCheckpoint(import);
    for (const auto& n : report.notes)
        std::cerr << "note: " << n << "\n";
    for (const auto& w : report.warnings)
        std::cerr << "warning: " << w << "\n";
    const ModelConfig& c = report.config;
    std::cout << "wrote " << o.out << ": layout " << layoutName(c.layout) << ", " << c.numLayers
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
                    "Attention heads (not stored in a state_dict; the notebook uses 2)")
        ->capture_default_str();
    cmd->add_option("--layout", o.layout, "Key layout: auto, 2021 or 2025")
        ->check(CLI::IsMember({"auto", "2021", "2025"}))
        ->capture_default_str();
    cmd->add_option("-o,--out", o.out, "Output checkpoint")->required();
    cmd->add_option("--steps", o.steps, "Training steps behind this state_dict (for the timeline)")
        ->check(CLI::NonNegativeNumber);
    cmd->callback([] { runImport(o); });
}

} // namespace cl::cli
