#include "ui/widgets/world_notice.h"

#include "ui/widgets/text_colour.h"

namespace cl::ui {

WorldNotice::WorldNotice(QWidget* parent) : QLabel(parent) {
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    setTextColour(this, QColor(0xb0, 0x1e, 0x1e), true);
    setVisible(false);
}

void WorldNotice::showFor(const CaptionTrace& trace) {
    setVisible(trace.outOfWorld());
    setText(trace.outOfWorld()
                ? tr("This image looks unlike anything the model was trained on (%1; "
                     "out-of-world score %2, above 1 is out): the caption is a guess.")
                      .arg(QString::fromStdString(trace.worldWhy()))
                      .arg(trace.worldScore, 0, 'f', 1)
                : QString());
}

QString WorldNotice::notice() const {
    return text();
}

} // namespace cl::ui
