#pragma once
// Each subcommand registers its options and callback on the CLI11 app. Callbacks throw
// std::exception on failure; cli_main turns that into one line on stderr and exit code 1.
#include <cstdint>
#include <string>

namespace cl {
struct RgbImage;
struct CaptionTrace;
class Captioner;
struct HeadImportanceEvalOptions;
struct CircuitsEvalOptions;
} // namespace cl
namespace CLI {
class App;
}

namespace cl::cli {

void addCaptionCommand(CLI::App& app);
void addInfoCommand(CLI::App& app);
void addImportCommand(CLI::App& app);
void addSceneCommand(CLI::App& app);
void addTrainCommand(CLI::App& app);
void addEvalCommand(CLI::App& app);
void addBenchCommand(CLI::App& app);
void addCalibrateCommand(CLI::App& app);
void addExplainCommand(CLI::App& app);
void addQkCommand(CLI::App& app);
void addLensCommand(CLI::App& app);
void addPatchCommand(CLI::App& app);
void addExportHtmlCommand(CLI::App& app);
void addExportAnimCommand(CLI::App& app);

// --word I|WORD: a caption step's index (0 first), or the first step whose token it is; throws
// naming the caption otherwise.
int64_t wordIndex(const std::string& word, const CaptionTrace& trace);

// eval --head-importance (eval_heads.cpp); `storeIn` non-empty: also kept in that checkpoint.
void runHeadImportanceEval(Captioner& model, const HeadImportanceEvalOptions& o, bool json,
                           const std::string& storeIn);

// eval --circuits (eval_circuits.cpp): activation patching scored on counterfactual pairs.
void runCircuitsEval(Captioner& model, const CircuitsEvalOptions& o, bool json,
                     const std::string& storeIn);

// Writes RGB pixels as a PNG, atomically.
void saveRgbPng(const RgbImage& rgb, const std::string& path);

} // namespace cl::cli
