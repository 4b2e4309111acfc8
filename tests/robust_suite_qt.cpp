// robust_suite_qt OUTDIR [PER_CATEGORY [SEED]]: the second held-out robustness renderer, drawn
// with QPainter and sharing no code with CaptionLens's training renderer or with
// tests/robust_suite.py. Same layout and ground truth format: OUTDIR/{slide,paper,outline,wide}/
// NNNN.{png,jpg} + NNNN.json {"width","height","objects":[{"colour","shape","box"}],"relation"}.
#include <QColor>
#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QImageWriter>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QPainterPath>

#include <cmath>
#include <cstdio>
#include <random>

namespace {

struct Rng {
    std::mt19937_64 gen;
    double uniform(double a, double b) { return std::uniform_real_distribution<>(a, b)(gen); }
    int below(int n) { return int(std::uniform_int_distribution<>(0, n - 1)(gen)); }
};

// Each colour name as a hue region (degrees), clearly saturated and bright.
const struct {
    const char* name;
    double lo, hi;
} kHues[] = {{"red", -8, 8},
             {"yellow", 48, 58},
             {"green", 100, 140},
             {"blue", 210, 235},
             {"purple", 270, 295}};
const char* kShapes[] = {"circle", "square", "triangle", "star"};

QColor colourOf(int c, Rng& rng) {
    const double hue = std::fmod(rng.uniform(kHues[c].lo, kHues[c].hi) + 360, 360) / 360;
    const double value = c == 1 ? rng.uniform(0.85, 1.0) : rng.uniform(0.72, 0.95);
    return QColor::fromHsvF(float(hue), float(rng.uniform(0.65, 0.95)), float(value));
}

QPainterPath shapePath(int shape, double r, double angle) {
    QPainterPath p;
    if (shape == 0) {
        p.addEllipse(QPointF(0, 0), r, r);
        return p;
    }
    const int points = shape == 1 ? 4 : shape == 2 ? 3 : 10;
    const double start = shape == 1 ? M_PI / 4 : -M_PI / 2;
    for (int k = 0; k < points; ++k) {
        const double radius = shape == 3 ? (k % 2 ? 0.48 : 1.2) * r : (shape == 1 ? 1.15 : 1.2) * r;
        const double a = angle + start + 2 * M_PI * k / points;
        const QPointF pt(std::cos(a) * radius, std::sin(a) * radius);
        k ? p.lineTo(pt) : p.moveTo(pt);
    }
    p.closeSubpath();
    return p;
}

QJsonObject drawScene(QImage& img, const QString& category, Rng& rng) {
    const int w = img.width(), h = img.height();
    QPainter painter(&img);
    painter.setRenderHint(QPainter::Antialiasing, rng.below(4) != 0);
    const int count = 1 + rng.below(2);
    const double r = rng.uniform(0.10, 0.16) * std::min(w, h);
    std::vector<QPointF> centres;
    QString relation;
    if (count == 1) {
        centres.push_back({rng.uniform(1.4 * r, w - 1.4 * r), rng.uniform(1.4 * r, h - 1.4 * r)});
    } else {
        const bool horizontal = w >= h ? rng.below(10) < 7 : rng.below(10) >= 7;
        const double a = rng.uniform(0.15, 0.35), b = rng.uniform(0.65, 0.85);
        const double across = rng.uniform(0.4, 0.6);
        QPointF p = horizontal ? QPointF(a * w, across * h) : QPointF(across * w, a * h);
        QPointF q = horizontal ? QPointF(b * w, across * h) : QPointF(across * w, b * h);
        if (rng.below(2))
            std::swap(p, q);
        centres = {p, q};
        relation = horizontal ? (p.x() < q.x() ? "left of" : "right of")
                              : (p.y() < q.y() ? "above" : "below");
    }
    QJsonArray objects;
    for (const QPointF& c : centres) {
        const int colour = rng.below(5), shape = rng.below(4);
        const QColor fill = colourOf(colour, rng);
        const double angle = shape ? rng.uniform(-0.25, 0.25) : 0;
        painter.save();
        painter.translate(c);
        if (category == "outline") {
            painter.setPen(QPen(fill, rng.uniform(2, 6)));
            painter.setBrush(Qt::NoBrush);
        } else {
            painter.setPen(rng.below(3) ? QPen(Qt::NoPen) : QPen(fill.darker(180), 2));
            painter.setBrush(fill);
        }
        painter.drawPath(shapePath(shape, r, angle));
        painter.restore();
        objects.append(
            QJsonObject{{"colour", kHues[colour].name},
                        {"shape", kShapes[shape]},
                        {"box", QJsonArray{int(c.x() - 1.2 * r), int(c.y() - 1.2 * r),
                                           int(c.x() + 1.2 * r), int(c.y() + 1.2 * r)}}});
    }
    return {{"width", w},
            {"height", h},
            {"objects", objects},
            {"relation", relation.isEmpty() ? QJsonValue() : QJsonValue(relation)}};
}

// A photographed sheet: uneven light, sensor noise and a little blur, drawn over the scene.
void photograph(QImage& img, Rng& rng) {
    const double gx = rng.uniform(-0.25, 0.25), gy = rng.uniform(-0.25, 0.25);
    std::normal_distribution<> noise(0, 6);
    for (int y = 0; y < img.height(); ++y) {
        auto* row = reinterpret_cast<QRgb*>(img.scanLine(y));
        for (int x = 0; x < img.width(); ++x) {
            const double light = 0.85 + gx * x / img.width() + gy * y / img.height();
            auto ch = [&](int v) { return std::clamp(int(v * light + noise(rng.gen)), 0, 255); };
            row[x] = qRgb(ch(qRed(row[x])), ch(qGreen(row[x])), ch(qBlue(row[x])));
        }
    }
    img = img.scaled(img.width() / 2, img.height() / 2, Qt::IgnoreAspectRatio,
                     Qt::SmoothTransformation)
              .scaled(img.width(), img.height(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
}

} // namespace

int main(int argc, char** argv) {
    QGuiApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: robust_suite_qt OUTDIR [PER_CATEGORY [SEED]]\n");
        return 2;
    }
    const QString out = argv[1];
    const int per = argc > 2 ? std::atoi(argv[2]) : 100;
    const unsigned seed = argc > 3 ? unsigned(std::atoi(argv[3])) : 0;
    const QStringList categories{"slide", "paper", "outline", "wide"};
    for (int k = 0; k < categories.size(); ++k) {
        const QString category = categories[k];
        Rng rng{std::mt19937_64(seed * 1000003ULL + unsigned(k))};
        QDir().mkpath(out + "/" + category);
        for (int i = 0; i < per; ++i) {
            const double ratio = rng.uniform(2, 3);
            const QSize size =
                category == "wide"
                    ? (rng.below(2) ? QSize(int(280 * ratio), 280) : QSize(280, int(280 * ratio)))
                    : QList<QSize>{{480, 360}, {560, 315}, {300, 300}}[rng.below(3)];
            QImage img(size, QImage::Format_RGB32);
            const int paper = 255 - rng.below(category == "paper" ? 30 : 10);
            img.fill(QColor(paper, paper, category == "paper" ? paper - 8 : paper));
            const QJsonObject truth = drawScene(img, category, rng);
            const QString stem = QString("%1/%2/%3").arg(out, category).arg(i, 4, 10, QChar('0'));
            if (category == "paper") {
                photograph(img, rng);
                QImageWriter jpeg(stem + ".jpg", "jpg");
                jpeg.setQuality(40 + rng.below(35));
                jpeg.write(img);
            } else {
                img.save(stem + ".png");
            }
            QFile json(stem + ".json");
            if (!json.open(QIODevice::WriteOnly))
                return 1;
            json.write(QJsonDocument(truth).toJson(QJsonDocument::Compact));
        }
    }
    return 0;
}
