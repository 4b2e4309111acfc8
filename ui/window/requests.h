#pragma once
// What the window asks of the model worker, and what comes back: plain values that cross threads
// through queued signals.
#include "model/api/captioner.h"
#include "model/evaluation/comparison.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

namespace cl::ui {

struct CaptionRequest {
    // Main captions replace the view; a branch (forced prefix), an ablation (no positional
    // encoding) and a reference (every head on, while heads are switched off) are variants of
    // it. A request supersedes only older ones of its own purpose.
    // A beam search (Beam) answers with the hypotheses as well (api/beam.h).
    // An explanation (Explain) answers with the maps of one word (api/explain.h).
    // A walkthrough (Walkthrough) answers with one head's Q . K numbers (api/walkthrough.h).
    // Head importance (HeadImportance) answers with every head's cost (api/head_importance.h).
    enum Purpose {
        Main = 0,
        Branch = 1,
        Ablation = 2,
        Reference = 3,
        Beam = 4,
        Explain = 5,
        Walkthrough = 6,
        HeadImportance = 7
    };
    quint64 id = 0;
    int purpose = Main;
    RgbImage image;              // image models
    std::vector<float> features; // feature models: one row of inputDim values
    DecodeOptions options;
    BeamOptions beam{0, 0};  // Beam: the search's width and length penalty
    bool beamChoice = false; // Main: options.forcedPrefix is a beam hypothesis, not the user's
    ExplainOptions explain;  // Explain: the word and methods
    WalkthroughOptions walkthrough; // Walkthrough: the layer, head, query and kind
};

struct CheckpointRequest {
    quint64 id = 0;
    QString path;
    QString device = QStringLiteral("cpu");
};

// Several checkpoints on one input (the comparison view), or one snapshot of a training run
// (the timeline). The compare worker caches loaded checkpoints by path.
struct CompareRequest {
    enum Purpose { Compare = 0, Timeline = 1 };
    quint64 id = 0;
    int purpose = Compare;
    QStringList paths;
    RgbImage image;
    std::vector<float> features;
    int64_t maxLength = 30;
    bool teacherForce = true; // score every model on every other's caption (not for timelines)
};

struct CompareResult {
    quint64 id = 0;
    int purpose = CompareRequest::Compare;
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
Q_DECLARE_METATYPE(cl::ModelInfo)
Q_DECLARE_METATYPE(cl::ui::CaptionRequest)
Q_DECLARE_METATYPE(cl::ui::CheckpointRequest)
Q_DECLARE_METATYPE(cl::ui::CompareRequest)
Q_DECLARE_METATYPE(cl::ui::CompareResult)
