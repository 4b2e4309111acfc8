#include "app/gui/web_export.h"

#include "app/common/web_page.h"
#include "ui/imaging/image_writer.h"

namespace cl {

std::string webPageOf(const ui::CaptionView& view, int step, int layer, int head) {
    WebPageInput in;
    in.trace = view.trace;
    in.model = view.model;
    in.png = encodeImage(view.image, "png").toStdString();
    in.imageWidth = view.image.width();
    in.imageHeight = view.image.height();
    in.name = view.imageName.toStdString();
    in.step = step;
    in.layer = layer;
    in.head = head;
    return webPage(in);
}

} // namespace cl
