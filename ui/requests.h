#pragma once
// What the window asks of the model worker, and what comes back: plain values that cross threads
// through queued signals.
#include "captioner.h"

#include <QMetaType>
#include <QString>

namespace cl::ui {

struct CaptionRequest {
    // Main captions replace the view; a branch (forced prefix) and an ablation (no positional
    // encoding) are variants of it. A request supersedes only older ones of its own purpose.
    enum Purpose { Main = 0, Branch = 1, Ablation = 2 };
    quint64 id = 0;
    int purpose = Main;
    RgbImage image;              // image models
    std::vector<float> features; // feature models: one row of inputDim values
    DecodeOptions options;
};

struct CheckpointRequest {
    quint64 id = 0;
    QString path;
    QString device = QStringLiteral("cpu");
};

} // namespace cl::ui

Q_DECLARE_METATYPE(cl::CaptionTrace)
Q_DECLARE_METATYPE(cl::ModelInfo)
Q_DECLARE_METATYPE(cl::ui::CaptionRequest)
Q_DECLARE_METATYPE(cl::ui::CheckpointRequest)
