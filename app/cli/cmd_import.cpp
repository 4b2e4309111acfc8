#include "checkpoint.h"
#include "commands.h"
#include "model_io.h"
#include "vocab_json.h"
#include "vocabulary.h"

#include <CLI/CLI.hpp>

#include <iostream>

namespace cl::cli {

namespace {

struct ImportOptions {
    std::string input, vocab, out, layout = "auto";
    int64_t heads = 2;
};

void runImport(const ImportOptions& o) {
    const Vocabulary vocab(readVocabJson(o.vocab));
    const StateDict sd = readStateDict(o.input);
    const Layout layout = o.layout == "auto" ? detectLayout(sd) : layoutFromName(o.layout);
    Checkpoint ck;
    ck.config = courseConfig(sd, vocab.size(), o.heads, layout);
    ck.vocab = vocab.words();
    ck.stateDict = sd;
    // Build once: proves every key and shape fits before anything is written.
    std::vector<std::string> warnings;
    auto model = buildModel(ck, vocab.nullId(), &warnings);
    ck.stateDict = stateDictOf(*model);
    ck.meta.dataset = "coco2014 (imported course checkpoint)";
    ck.meta.date = isoDateNow();
    ck.meta.source = o.input;
    writeCheckpoint(o.out, ck);
    for (const auto& w : warnings)
        std::cerr << "warning: " << w << "\n";
    std::cout << "wrote " << o.out << ": layout " << layoutName(layout) << ", "
              << ck.config.numLayers << " layers, " << ck.config.numHeads << " heads, width "
              << ck.config.wordvecDim << ", vocabulary " << vocab.size() << "\n";
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
    cmd->callback([] { runImport(o); });
}

} // namespace cl::cli
