#pragma once
// Animated GIF for slides (issue 40): one palette of 256 colours for the whole animation, chosen
// by libimagequant from every frame (so a colour keeps its index from frame to frame), dithered
// remapping, and only the rectangle that changed written after the first frame. Plays in browsers
// and LibreOffice Impress; loops forever.
#include <QByteArray>
#include <QImage>
#include <QString>

#include <vector>

namespace cl::ui {

struct AnimationFrames {
    std::vector<QImage> frames; // all the same size
    std::vector<int> delaysMs;  // one a frame: how long it stays (GIF keeps hundredths)
};

struct GifResult {
    QByteArray bytes;
    QString error; // empty when it worked
};

GifResult encodeGif(const AnimationFrames& animation);

} // namespace cl::ui
