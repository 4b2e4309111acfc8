#pragma once
// The frames of an animation for slides (issue 40), painted from a caption's trace: no model,
// no widgets (the CLI paints them too). 16:9 frames, the image with a word's cross-attention
// on the left, words and figures on the right.
#include "model/core/trace.h"
#include "ui/animation/gif_writer.h"

#include <QImage>
#include <QString>

#include <vector>

namespace cl::ui {

struct AnimationStyle {
    int width = 960;       // height = width * 9 / 16
    int frameMs = 900;     // each frame's time; the last one stays three times as long
    int layer = -1;        // the cross-attention shown: layer (-1: the last) ...
    int head = -1;         // ... and head (-1: the head average)
    double opacity = 0.65; // of the attention over the image
};

// Greedy decoding step by step: the caption growing, the candidates with their probabilities,
// the new word's cross-attention over the image. One frame a word, then the whole caption.
AnimationFrames decodeFrames(const CaptionTrace& trace, const QImage& image,
                             const AnimationStyle& style);

// One word's cross-attention through every layer and head (head average first in each layer),
// with a map of where in the layers x heads grid the frame is.
AnimationFrames headFrames(const CaptionTrace& trace, const QImage& image, int step,
                           const AnimationStyle& style);

// A training run's snapshots in order: each one's caption of the image and the attention of its
// word `step` (or its last word when shorter), on a timeline of the snapshots.
struct Snapshot {
    QString label; // "step 4000", the file name, ...
    CaptionTrace trace;
};
AnimationFrames timelineFrames(const std::vector<Snapshot>& snapshots, const QImage& image,
                               int step, const AnimationStyle& style);

} // namespace cl::ui
