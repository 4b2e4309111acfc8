#pragma once
// Everything a caption panel shows: the image, the decode trace, and the model that made it.
#include "model/api/captioner.h"
#include "model/shapes/scene.h"

#include <QImage>
#include <QString>

#include <optional>

namespace cl::ui {

struct CaptionView {
    QImage image; // empty for feature-input models
    QString imageName;
    std::optional<SceneSpec> scene; // the shapes-world scene on screen (editor, Random Scene)
    CaptionTrace trace;
    ModelInfo model;
    int headsOff = 0; // heads switched off for this caption (Head ablation); shown everywhere
    bool beamHypothesis = false; // a hypothesis chosen on the Beam tab, not the greedy caption
    bool valid() const { return !trace.steps.empty(); }
    int headCount() const { return int(trace.layers * 2 * trace.heads); } // self + cross
    bool hasSpatialMemory() const { return trace.gridSide > 0 && !image.isNull(); }
};

} // namespace cl::ui
