#pragma once
// What the window asks of every panel, so it keeps them in a list instead of an if-chain: show
// the caption on screen, and step through the panel's own sequence on PageDown/PageUp.
#include "ui/panels/caption_view.h"

#include <QString>

namespace cl::ui {

class Panel {
  public:
    virtual ~Panel() = default;
    // The caption on screen. Panels that run their own requests (compare, timeline) keep only
    // what they draw with it (the image).
    virtual void setView(const CaptionView& view) = 0;
    // PageDown/PageUp inside the panel's own sequence (A's words, snapshots); false: the window
    // steps the shared word instead.
    virtual bool stepBy(int delta) {
        (void)delta;
        return false;
    }
    // What the panel shows, for an export's file name ("L2-H1-star"), when it is not the shared
    // selection's layer, head and word; empty: the selection's.
    virtual QString exportTag() const { return {}; }
};

} // namespace cl::ui
