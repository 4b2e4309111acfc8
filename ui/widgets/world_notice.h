#pragma once
// The out-of-world sentence (model/novelty): shown wherever a caption is, above it, while the
// image lies outside the training world, so a confident wrong caption never passes for the truth
// in front of a class. Hidden for in-world images.
#include "model/core/trace.h"

#include <QLabel>

namespace cl::ui {

class WorldNotice final : public QLabel {
    Q_OBJECT
  public:
    explicit WorldNotice(QWidget* parent = nullptr);
    void showFor(const CaptionTrace& trace);
    QString notice() const; // empty while hidden
};

} // namespace cl::ui
