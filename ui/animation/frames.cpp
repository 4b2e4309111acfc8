#include "ui/animation/frames.h"

#include "ui/math/attention_math.h"
#include "ui/math/colormap.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace cl::ui {

namespace {

class Text {
    Q_DECLARE_TR_FUNCTIONS(cl::ui::Animation)
};

const QColor kInk(0x1d, 0x20, 0x33), kMuted(0x5a, 0x5f, 0x75), kAccent(0x3b, 0x4c, 0xca),
    kTrack(0xe4, 0xe6, 0xef);

// A 16:9 white frame and a painter on it; s scales the 960-pixel layout to the frame's width.
class Canvas {
  public:
    explicit Canvas(int width)
        : m_image(width, width * 9 / 16, QImage::Format_RGB32), s(width / 960.0) {
        m_image.fill(Qt::white);
        p.begin(&m_image);
        p.setRenderHint(QPainter::Antialiasing);
        p.setRenderHint(QPainter::TextAntialiasing);
    }
    QImage take() {
        p.end();
        return m_image;
    }
    void font(double px, bool bold = false) {
        QFont f = p.font();
        f.setPixelSize(std::max(8, int(std::lround(px * s))));
        f.setBold(bold);
        p.setFont(f);
    }
    int px(double v) const { return int(std::lround(v * s)); }
    int width() const { return m_image.width(); }
    int height() const { return m_image.height(); }
    // The square the image goes in, and the column right of it.
    QRect imageBox() const {
        const int side = std::min(height() - px(112), width() / 2);
        return {px(24), px(64), side, side};
    }
    QRect sideBox() const {
        const int left = imageBox().right() + px(32);
        return {left, px(64), width() - px(24) - left, height() - px(88)};
    }

  private:
    QImage m_image;

  public:
    const double s;
    QPainter p;
};

void title(Canvas& c, const QString& text) {
    c.font(24, true);
    c.p.setPen(kInk);
    c.p.drawText(QRect(c.px(24), c.px(12), c.width() - c.px(48), c.px(44)),
                 Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                 QFontMetrics(c.p.font()).elidedText(text, Qt::ElideRight, c.width() - c.px(48)));
}

int lastLayer(const CaptionTrace& t, int layer) {
    return layer < 0 || layer >= t.layers ? int(t.layers) - 1 : layer;
}

// The image fitted into the box, `row` (cross-attention over the grid) over it when not empty,
// and a line under it saying what the colours are.
void attention(Canvas& c, const CaptionTrace& t, const QImage& image, const std::vector<float>& row,
               double opacity, const QString& caption) {
    const QRect box = c.imageBox();
    // Over the image as it came (the trace's crop and letterbox are in its pixels), as the
    // panels draw it, then fitted into the frame.
    const QImage shown =
        !row.empty() && t.gridSide > 0
            ? attentionOverlay(image, row, unitGridMap(t, image), opacity, colourRange(row, true))
            : image;
    const QImage fitted = shown.scaled(box.size(), Qt::KeepAspectRatio, Qt::SmoothTransformation);
    const QPoint at(box.x() + (box.width() - fitted.width()) / 2,
                    box.y() + (box.height() - fitted.height()) / 2);
    c.p.drawImage(at, fitted);
    c.p.setPen(QPen(kTrack, c.px(1)));
    c.p.drawRect(QRect(at, fitted.size()).adjusted(0, 0, -1, -1));
    c.font(15);
    c.p.setPen(kMuted);
    c.p.drawText(QRect(box.x(), box.bottom() + c.px(8), box.width(), c.px(40)),
                 Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, caption);
}

// Words left to right, wrapping inside `box`; word `mark` on a blue chip. Returns the y under them.
int words(Canvas& c, const QRect& box, const QStringList& list, int mark) {
    c.font(26, true);
    const QFontMetrics fm(c.p.font());
    const int gap = c.px(10), lineH = fm.height() + c.px(12);
    int x = box.x(), y = box.y();
    for (int i = 0; i < list.size(); ++i) {
        const int w = fm.horizontalAdvance(list[i]) + c.px(12);
        if (x + w > box.right() && x > box.x()) {
            x = box.x();
            y += lineH;
        }
        const QRect chip(x, y, w, fm.height() + c.px(6));
        if (i == mark) {
            c.p.setPen(Qt::NoPen);
            c.p.setBrush(kAccent);
            c.p.drawRoundedRect(chip, c.px(6), c.px(6));
        }
        c.p.setPen(i == mark ? Qt::white : kInk);
        c.p.drawText(chip, Qt::AlignCenter, list[i]);
        x += w + gap;
    }
    return y + lineH + c.px(8);
}

void label(Canvas& c, int y, const QString& text) {
    const QRect side = c.sideBox();
    c.font(16, true);
    c.p.setPen(kMuted);
    c.p.drawText(QRect(side.x(), y, side.width(), c.px(26)), Qt::AlignLeft | Qt::AlignVCenter,
                 text);
}

// The step's top candidates: word, a bar as long as its probability, the percentage.
void candidates(Canvas& c, int y, const DecodeStep& step) {
    const QRect side = c.sideBox();
    c.font(19);
    const QFontMetrics fm(c.p.font());
    const int rowH = c.px(40), wordW = side.width() * 3 / 10, barW = side.width() * 5 / 10;
    for (size_t i = 0; i < step.topK.size() && y + rowH <= side.bottom(); ++i, y += rowH) {
        const Candidate& k = step.topK[i];
        const bool chosen = k.id == step.id;
        c.p.setPen(chosen ? kAccent : kInk);
        c.p.drawText(QRect(side.x(), y, wordW - c.px(8), rowH), Qt::AlignRight | Qt::AlignVCenter,
                     fm.elidedText(QString::fromStdString(k.token), Qt::ElideRight, wordW));
        const QRect track(side.x() + wordW, y + c.px(10), barW, rowH - c.px(20));
        c.p.setPen(Qt::NoPen);
        c.p.setBrush(kTrack);
        c.p.drawRect(track);
        c.p.setBrush(chosen ? kAccent : kMuted);
        c.p.drawRect(
            QRect(track.topLeft(),
                  QSize(std::max(1, int(std::lround(barW * double(k.prob)))), track.height())));
        c.p.setPen(chosen ? kAccent : kInk);
        c.p.drawText(QRect(track.right() + c.px(10), y, side.right() - track.right(), rowH),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     QStringLiteral("%1 %").arg(100.0 * double(k.prob), 0, 'f', 1));
    }
}

QStringList tokens(const CaptionTrace& t, int upTo) {
    return outputTokens(t).mid(0, upTo + 1);
}

QString headText(int head) {
    return head < 0 ? Text::tr("the head average") : Text::tr("head %1").arg(head + 1);
}

AnimationFrames withTimes(std::vector<QImage> frames, int frameMs) {
    AnimationFrames a;
    a.frames = std::move(frames);
    a.delaysMs.assign(a.frames.size(), std::clamp(frameMs, 20, 60000));
    if (!a.delaysMs.empty())
        a.delaysMs.back() = std::min(3 * a.delaysMs.back(), 60000);
    return a;
}

QImage decodeFrame(const CaptionTrace& t, const QImage& image, int k, const AnimationStyle& st) {
    Canvas c(st.width);
    const int n = int(t.steps.size()), layer = lastLayer(t, st.layer);
    title(c, Text::tr("Greedy decoding: word %1 of %2").arg(k + 1).arg(n));
    const QString word = QString::fromStdString(t.steps[size_t(k)].token);
    attention(c, t, image, crossRow(t, layer, st.head, k), st.opacity,
              Text::tr("Cross-attention of “%1”: layer %2, %3")
                  .arg(word)
                  .arg(layer + 1)
                  .arg(headText(st.head)));
    const QRect side = c.sideBox();
    label(c, side.y(), Text::tr("The caption so far"));
    const int y = words(c, side.adjusted(0, c.px(32), 0, 0), tokens(t, k), k);
    label(c, y, Text::tr("Candidates for word %1").arg(k + 1));
    candidates(c, y + c.px(32), t.steps[size_t(k)]);
    return c.take();
}

QImage captionFrame(const CaptionTrace& t, const QImage& image, const AnimationStyle& st) {
    Canvas c(st.width);
    title(c, Text::tr("The caption"));
    attention(c, t, image, {}, st.opacity, QString());
    const QRect side = c.sideBox();
    words(c, side, outputTokens(t), -1);
    return c.take();
}

// Layers down, the head average and each head across; the frame's own cell filled.
void headGrid(Canvas& c, int y, const CaptionTrace& t, int layer, int head) {
    const QRect side = c.sideBox();
    const int cols = int(t.heads) + 1, rows = int(t.layers);
    const int cell = std::min({c.px(40), (side.width() - c.px(60)) / std::max(1, cols),
                               (side.bottom() - y - c.px(30)) / std::max(1, rows)});
    c.font(13);
    for (int l = 0; l < rows; ++l) {
        c.p.setPen(kMuted);
        c.p.drawText(QRect(side.x(), y + c.px(24) + l * cell, c.px(52), cell),
                     Qt::AlignLeft | Qt::AlignVCenter, Text::tr("layer %1").arg(l + 1));
        for (int h = -1; h < int(t.heads); ++h) {
            const QRect r(side.x() + c.px(56) + (h + 1) * cell, y + c.px(24) + l * cell,
                          cell - c.px(4), cell - c.px(4));
            if (l == 0) {
                c.p.setPen(kMuted);
                c.p.drawText(QRect(r.x(), y, r.width(), c.px(22)), Qt::AlignCenter,
                             h < 0 ? Text::tr("avg") : QString::number(h + 1));
            }
            c.p.setPen(Qt::NoPen);
            c.p.setBrush(l == layer && h == head ? kAccent : kTrack);
            c.p.drawRect(r);
        }
    }
}

QImage headFrame(const CaptionTrace& t, const QImage& image, int step, int layer, int head,
                 const AnimationStyle& st) {
    Canvas c(st.width);
    const QString word = QString::fromStdString(t.steps[size_t(step)].token);
    title(c, Text::tr("“%1”: cross-attention, layer %2, %3")
                 .arg(word)
                 .arg(layer + 1)
                 .arg(headText(head)));
    const auto row = crossRow(t, layer, head, step);
    attention(c, t, image, row, st.opacity,
              Text::tr("%1 bits of entropy (lower: sharper)")
                  .arg(meanEntropyBits(row, 1, int(row.size())), 0, 'f', 2));
    const QRect side = c.sideBox();
    const int y = words(c, side, outputTokens(t), step);
    headGrid(c, y, t, layer, head);
    return c.take();
}

// The snapshots as dots on a line, the frame's own one filled, labels under the ends and it.
void timelineStrip(Canvas& c, const std::vector<Snapshot>& shots, int at) {
    const QRect side = c.sideBox();
    const int y = side.bottom() - c.px(56), n = int(shots.size());
    const int x0 = side.x() + c.px(12), x1 = side.right() - c.px(12);
    c.p.setPen(QPen(kTrack, c.px(4)));
    c.p.drawLine(x0, y, x1, y);
    c.font(14);
    for (int i = 0; i < n; ++i) {
        const int x = n == 1 ? x0 : x0 + (x1 - x0) * i / (n - 1);
        c.p.setPen(Qt::NoPen);
        c.p.setBrush(i == at ? kAccent : kMuted);
        const int r = i == at ? c.px(9) : c.px(5);
        c.p.drawEllipse(QPoint(x, y), r, r);
        if (i == at || i == 0 || i == n - 1) {
            c.p.setPen(i == at ? kAccent : kMuted);
            const int w = c.px(150);
            const int left = std::clamp(x - w / 2, side.x(), side.right() - w);
            c.p.drawText(QRect(left, y + c.px(14), w, c.px(22)), Qt::AlignCenter,
                         shots[size_t(i)].label);
        }
    }
}

QImage timelineFrame(const std::vector<Snapshot>& shots, int i, const QImage& image, int step,
                     const AnimationStyle& st) {
    Canvas c(st.width);
    const CaptionTrace& t = shots[size_t(i)].trace;
    title(c, Text::tr("Training: %1 (%2 of %3)")
                 .arg(shots[size_t(i)].label)
                 .arg(i + 1)
                 .arg(shots.size()));
    const int word = std::clamp(step, 0, int(t.steps.size()) - 1), layer = lastLayer(t, st.layer);
    attention(c, t, image,
              t.steps.empty() ? std::vector<float>{} : crossRow(t, layer, st.head, word),
              st.opacity,
              t.steps.empty() ? QString()
                              : Text::tr("Cross-attention of “%1”: layer %2, %3")
                                    .arg(QString::fromStdString(t.steps[size_t(word)].token))
                                    .arg(layer + 1)
                                    .arg(headText(st.head)));
    const QRect side = c.sideBox();
    label(c, side.y(), Text::tr("Its caption"));
    words(c, side.adjusted(0, c.px(32), 0, 0), outputTokens(t), word);
    timelineStrip(c, shots, i);
    return c.take();
}

} // namespace

AnimationFrames decodeFrames(const CaptionTrace& trace, const QImage& image,
                             const AnimationStyle& style) {
    std::vector<QImage> frames;
    for (int k = 0; k < int(trace.steps.size()); ++k)
        frames.push_back(decodeFrame(trace, image, k, style));
    frames.push_back(captionFrame(trace, image, style));
    return withTimes(std::move(frames), style.frameMs);
}

AnimationFrames headFrames(const CaptionTrace& trace, const QImage& image, int step,
                           const AnimationStyle& style) {
    std::vector<QImage> frames;
    if (!trace.steps.empty()) {
        step = std::clamp(step, 0, int(trace.steps.size()) - 1);
        for (int l = 0; l < int(trace.layers); ++l)
            for (int h = -1; h < int(trace.heads); ++h)
                frames.push_back(headFrame(trace, image, step, l, h, style));
    }
    return withTimes(std::move(frames), style.frameMs);
}

AnimationFrames timelineFrames(const std::vector<Snapshot>& snapshots, const QImage& image,
                               int step, const AnimationStyle& style) {
    std::vector<QImage> frames;
    for (int i = 0; i < int(snapshots.size()); ++i)
        frames.push_back(timelineFrame(snapshots, i, image, step, style));
    return withTimes(std::move(frames), style.frameMs);
}

} // namespace cl::ui
