#pragma once
// File > Export Web Page: the caption on screen as app/common/web_page.h's page.
#include "ui/panels/caption_view.h"

#include <string>

namespace cl {

// Opened on word `step`, `layer` and `head` (-1: the head average). Throws like webPage().
std::string webPageOf(const ui::CaptionView& view, int step, int layer, int head);

} // namespace cl
