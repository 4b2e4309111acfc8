#pragma once
// What the window asks of the model worker, and what comes back: plain values that cross threads
// through queued signals.
#include "model/api/captioner.h"
#include "model/evaluation/comparison.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <array>
#include <cstddef>
#include <variant>

namespace cl::ui {

// Every kind of request the model worker answers, declared here once. Adding one is a value here
// and a case in each switch over it: requestLane() below, CaptionWorker::answer() (what the model
// does) and Session::deliver() (which signal carries the answer). None of the switches has a
// default, so -Wswitch (an error in CI) lists every place a new kind is still missing.
enum class CaptionPurpose {
    Main,           // replaces the view
    Branch,         // a forced prefix
    Ablation,       // no positional encoding
    Reference,      // every head on, while heads are switched off
    Beam,           // a beam search: the hypotheses as well (core/beam.h)
    Explain,        // the maps of one word (core/explain.h)
    Walkthrough,    // one head's Q . K numbers (core/walkthrough.h)
    HeadImportance, // every head's cost (core/head_importance.h)
    Circuits,       // patching a clean/corrupted pair and the logit lens (core/patching.h)
};
inline constexpr std::size_t kCaptionPurposes = 9;
inline constexpr std::size_t index(CaptionPurpose p) { return static_cast<std::size_t>(p); }

// A request supersedes the older ones of its lane only (the worker skips those unprocessed).
// Main and Reference share one: a reference belongs to the main caption it was asked for.
inline constexpr std::size_t kRequestLanes = 8;
inline constexpr std::size_t requestLane(CaptionPurpose p) {
    switch (p) {
    case CaptionPurpose::Main:
    case CaptionPurpose::Reference:
        return 0;
    case CaptionPurpose::Branch:
        return 1;
    case CaptionPurpose::Ablation:
        return 2;
    case CaptionPurpose::Beam:
        return 3;
    case CaptionPurpose::Explain:
        return 4;
    case CaptionPurpose::Walkthrough:
        return 5;
    case CaptionPurpose::HeadImportance:
        return 6;
    case CaptionPurpose::Circuits:
        return 7;
    }
    return 0; // not reached: every purpose is a case above
}

struct CaptionRequest {
    // What it asks for: CaptionPurpose above (the old names stay as constants).
    using Purpose = CaptionPurpose;
    static constexpr Purpose Main = Purpose::Main, Branch = Purpose::Branch,
                             Ablation = Purpose::Ablation, Reference = Purpose::Reference,
                             Beam = Purpose::Beam, Explain = Purpose::Explain,
                             Walkthrough = Purpose::Walkthrough,
                             HeadImportance = Purpose::HeadImportance,
                             Circuits = Purpose::Circuits;
    quint64 id = 0;
    Purpose purpose = Main;
    RgbImage image;              // image models
    std::vector<float> features; // feature models: one row of inputDim values
    DecodeOptions options;
    BeamOptions beam{0, 0};  // Beam: the search's width and length penalty
    bool beamChoice = false; // Main: options.forcedPrefix is a beam hypothesis, not the user's
    ExplainOptions explain;  // Explain: the word and methods
    WalkthroughOptions walkthrough; // Walkthrough: the layer, head, query and kind
    RgbImage corrupt;               // Circuits: the corrupted image (`image` is the clean one)
    PatchOptions patch;             // Circuits: the position measured, the direction
};

// The Circuits panel's answer: every site patched (and its attribution estimate), and the logit
// lens and direct logit attribution of the clean image's caption.
struct CircuitsResult {
    PatchReport patch;
    LensReport lens;
};

// The worker's answer to a CaptionRequest: one value of the kind its purpose asks for, or the
// failure's one line.
using CaptionResult = std::variant<CaptionTrace, BeamCaption, Explanation, AttentionWalkthrough,
                                   HeadImportance, CircuitsResult>;
struct CaptionAnswer {
    quint64 id = 0;
    CaptionPurpose purpose = CaptionPurpose::Main;
    CaptionResult value;
    QString error; // not empty: the request failed and `value` means nothing
};

struct CheckpointRequest {
    quint64 id = 0;
    QString path;
    QString device = QStringLiteral("cpu");
};

// Several checkpoints on one input (the comparison view), or one snapshot of a training run
// (the timeline). The compare worker caches loaded checkpoints by path.
struct CompareRequest {
    enum class Purpose { Compare, Timeline };
    static constexpr Purpose Compare = Purpose::Compare, Timeline = Purpose::Timeline;
    quint64 id = 0;
    Purpose purpose = Compare;
    QStringList paths;
    RgbImage image;
    std::vector<float> features;
    int64_t maxLength = 30;
    bool teacherForce = true; // score every model on every other's caption (not for timelines)
    // Per path: the heads switched off (the model on screen's, wherever it is listed), so
    // Compare shows the model as the other panels do; empty: every head on.
    std::vector<std::vector<uint8_t>> headsOff;
};

struct CompareResult {
    quint64 id = 0;
    CompareRequest::Purpose purpose = CompareRequest::Compare;
    QStringList paths;
    std::vector<ModelInfo> models; // per path (empty config when it failed to load)
    QStringList loadErrors;        // per path; empty string when it loaded
    std::vector<ModelRun> runs;    // per path
    bool ok(int i) const { return loadErrors.value(i).isEmpty() && runs[size_t(i)].error.empty(); }
    QString error(int i) const {
        return loadErrors.value(i).isEmpty() ? QString::fromStdString(runs[size_t(i)].error)
                                             : loadErrors.value(i);
    }
};

} // namespace cl::ui

Q_DECLARE_METATYPE(cl::CaptionTrace)
Q_DECLARE_METATYPE(cl::BeamCaption)
Q_DECLARE_METATYPE(cl::Explanation)
Q_DECLARE_METATYPE(cl::AttentionWalkthrough)
Q_DECLARE_METATYPE(cl::HeadImportance)
Q_DECLARE_METATYPE(cl::ui::CircuitsResult)
Q_DECLARE_METATYPE(cl::ModelInfo)
Q_DECLARE_METATYPE(cl::ui::CaptionRequest)
Q_DECLARE_METATYPE(cl::ui::CaptionAnswer)
Q_DECLARE_METATYPE(cl::ui::CheckpointRequest)
Q_DECLARE_METATYPE(cl::ui::CompareRequest)
Q_DECLARE_METATYPE(cl::ui::CompareResult)
