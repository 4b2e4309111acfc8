// Animations for slides (issue 40): the GIF writer (frames, times, loop, colours that survive
// the palette, only changed rectangles after the first frame), the frames painted from a trace
// (a word's attention lands where the trace says), and File > Export Animation through its
// dialog. The CLI's GIFs, read by PIL and played in chromium: tests/web_page_test.py.
#include "tests/gui_fixture.h"
#include "ui/animation/frames.h"
#include "ui/math/attention_math.h"
#include "ui/math/colormap.h"
#include "ui/panels/selection.h"
#include "ui/panels/timeline_panel.h"
#include "ui/window/animation_dialog.h"

#include <QBuffer>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QImageReader>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>

#include <cmath>

#include "tests/test_main.h"

using namespace cl;
using namespace cl::ui;

namespace {

// One layer, two heads, a 2x2 grid; word k attends (both heads) to cell k % 4 alone.
CaptionTrace toyTrace(int words) {
    CaptionTrace t;
    t.layers = 1;
    t.heads = 2;
    t.memoryTokens = 4;
    t.gridSide = 2;
    t.inputSide = 64;
    for (int k = 0; k < words; ++k) {
        DecodeStep s;
        s.id = k;
        s.token = "word" + std::to_string(k);
        s.prob = 0.9f;
        s.topK = {{k, s.token, 0.9f}, {99, "other", 0.1f}};
        s.selfAttn.assign(size_t(2 * (k + 1)), 1.f / float(k + 1));
        s.crossAttn.assign(8, 0.f);
        s.crossAttn[size_t(k % 4)] = 1.f;
        s.crossAttn[size_t(4 + k % 4)] = 1.f;
        t.steps.push_back(s);
    }
    return t;
}

QImage grey(int side) {
    QImage im(side, side, QImage::Format_RGB32);
    im.fill(QColor(128, 128, 128));
    return im;
}

// Mean brightness of a rectangle.
double brightness(const QImage& im, const QRect& r) {
    double sum = 0;
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x)
            sum += qGray(im.pixel(x, y));
    return sum / (r.width() * r.height());
}

std::vector<QImage> readGif(const QByteArray& bytes, std::vector<int>* delays = nullptr) {
    QBuffer buffer;
    buffer.setData(bytes);
    QImageReader reader(&buffer, "gif");
    std::vector<QImage> out;
    for (QImage im; reader.read(&im);) {
        out.push_back(im.convertToFormat(QImage::Format_RGB32));
        if (delays)
            delays->push_back(reader.nextImageDelay());
    }
    return out;
}

} // namespace

class TestAnimation : public QObject {
    Q_OBJECT
    cltest::GuiFixture m_f;

  private slots:
    void initTestCase() { QVERIFY(m_f.start()); }
    void cleanupTestCase() { m_f.stop(); }

    // Frames come back as they went in (within the palette's error), each with its time, though
    // the frames after the first are written as the rectangle that changed.
    void gifRoundTrip() {
        AnimationFrames a;
        for (int i = 0; i < 3; ++i) {
            QImage im(120, 80, QImage::Format_RGB32);
            for (int y = 0; y < 80; ++y)
                for (int x = 0; x < 120; ++x)
                    im.setPixel(x, y, qRgb(2 * x, 3 * y, 60));
            QPainter(&im).fillRect(10 + 30 * i, 20, 20, 20, QColor(230, 40, 40));
            a.frames.push_back(im);
        }
        a.delaysMs = {300, 500, 1500};
        const GifResult gif = encodeGif(a);
        QVERIFY2(gif.error.isEmpty(), qPrintable(gif.error));
        QVERIFY(gif.bytes.startsWith("GIF89a"));
        QVERIFY(gif.bytes.contains("NETSCAPE2.0")); // loops
        std::vector<int> delays;
        const auto back = readGif(gif.bytes, &delays);
        QCOMPARE(back.size(), size_t(3));
        QCOMPARE(delays, (std::vector<int>{300, 500, 1500}));
        for (size_t i = 0; i < 3; ++i) {
            double err = 0;
            for (int y = 0; y < 80; ++y)
                for (int x = 0; x < 120; ++x) {
                    const QRgb p = back[i].pixel(x, y), q = a.frames[i].pixel(x, y);
                    err += std::abs(qRed(p) - qRed(q)) + std::abs(qGreen(p) - qGreen(q)) +
                           std::abs(qBlue(p) - qBlue(q));
                }
            QVERIFY2(err / (3 * 80 * 120) < 6, qPrintable(QString::number(err / (3 * 80 * 120))));
            QCOMPARE(QColor(back[i].pixel(20 + 30 * int(i), 30)).red() > 200, true);
        }
    }

    void badAnimationsAreRefused() {
        QVERIFY(!encodeGif({}).error.isEmpty());
        AnimationFrames a;
        a.frames = {grey(10), grey(12)};
        a.delaysMs = {100, 100};
        QVERIFY(encodeGif(a).error.contains("one size"));
    }

    // A frame a word, then the caption; word k's frame is bright (viridis yellow) over its cell.
    void decodeFramesFollowTheTrace() {
        const CaptionTrace t = toyTrace(4);
        AnimationStyle style;
        style.frameMs = 400;
        const AnimationFrames a = decodeFrames(t, grey(64), style);
        QCOMPARE(a.frames.size(), size_t(5));
        QCOMPARE(a.delaysMs, (std::vector<int>{400, 400, 400, 400, 1200}));
        QCOMPARE(a.frames[0].size(), QSize(960, 540));
        // The image box: 24,64 and 428 px a side; its quarters are the grid's cells.
        const QRect box(24, 64, 428, 428);
        const auto quarter = [&](int cell) {
            return QRect(box.x() + (cell % 2) * 214 + 40, box.y() + (cell / 2) * 214 + 40, 134,
                         134);
        };
        for (int k = 0; k < 4; ++k)
            for (int other = 0; other < 4; ++other)
                if (other != k)
                    QVERIFY2(brightness(a.frames[size_t(k)], quarter(k)) >
                                 brightness(a.frames[size_t(k)], quarter(other)) + 25,
                             qPrintable(QString("word %1 cell %2").arg(k).arg(other)));
    }

    void headAndTimelineFrames() {
        const CaptionTrace t = toyTrace(3);
        QCOMPARE(headFrames(t, grey(64), 1, {}).frames.size(), size_t(3)); // avg, head 1, head 2
        std::vector<Snapshot> shots{{"step1", toyTrace(2)}, {"step2", toyTrace(3)}};
        const auto a = timelineFrames(shots, grey(64), 2, {});
        QCOMPARE(a.frames.size(), size_t(2));
        QVERIFY(a.frames[0] != a.frames[1]);
    }

    // A real caption's frames show the word's attention where the app draws it: the overlay of
    // the image as it came (its crop and letterbox in its own pixels), fitted into the frame.
    // (The overlay was once made on the fitted copy and landed in the wrong place.)
    void framesMatchTheAppsOverlay() {
        auto* w = m_f.window.get();
        QVERIFY(m_f.openAndWait(CL_SOURCE_DIR "/resources/samples/three-shapes.png"));
        const CaptionTrace& t = w->view().trace;
        QVERIFY(t.letterboxed && t.seen.width > 0); // the sample's crop matters here
        const QImage& image = w->view().image;
        const AnimationFrames a = decodeFrames(t, image, {});
        const QRect box(24, 64, 428, 428);
        for (int k : {2, 3}) {
            const auto row = crossRow(t, int(t.layers) - 1, -1, k);
            const QImage want =
                attentionOverlay(image, row, unitGridMap(t, image), 0.65, colourRange(row, true))
                    .scaled(box.size(), Qt::KeepAspectRatio, Qt::SmoothTransformation)
                    .convertToFormat(QImage::Format_RGB32);
            const QImage got = a.frames[size_t(k)].copy(box);
            const QImage plain =
                image.scaled(box.size(), Qt::KeepAspectRatio, Qt::SmoothTransformation)
                    .convertToFormat(QImage::Format_RGB32);
            // Where the map is strong (it changes the image most), the frame must show it.
            double err = 0;
            int n = 0;
            for (int y = 8; y < box.height() - 8; y += 2)
                for (int x = 8; x < box.width() - 8; x += 2)
                    if (std::abs(qGray(want.pixel(x, y)) - qGray(plain.pixel(x, y))) > 40) {
                        err += std::abs(qGray(got.pixel(x, y)) - qGray(want.pixel(x, y)));
                        ++n;
                    }
            // (a 12 x 12 grid's map is tighter: 91 sampled pixels for word 2, 200+ at 8 x 8)
            QVERIFY2(n > 50, qPrintable(QString("word %1: %2 strongly attended pixels").arg(k).arg(n)));
            QVERIFY2(err / n < 6, qPrintable(QString("word %1: mean grey difference %2 over %3 "
                                                     "strongly attended pixels")
                                                 .arg(k)
                                                 .arg(err / n)
                                                 .arg(n)));
        }
    }

    // File > Export Animation: the dialog's choices (kind, frame time, size, file) make the GIF.
    void exportThroughTheDialog() {
        auto* w = m_f.window.get();
        QVERIFY(m_f.openAndWait(CL_SOURCE_DIR "/resources/samples/three-shapes.png"));
        w->selection()->setStep(2);
        QAction* action = nullptr;
        for (auto* a : w->findChildren<QAction*>())
            if (a->text().contains("Export &Animation"))
                action = a;
        QVERIFY(action);
        action->trigger();
        auto* dialog = w->findChild<AnimationDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        auto* kind = dialog->findChild<QComboBox*>("animationKind");
        // No timeline captioned yet: its choice is there but off.
        QVERIFY(!qobject_cast<QStandardItemModel*>(kind->model())->item(2)->isEnabled());
        kind->setCurrentIndex(1); // the word through every layer and head
        QVERIFY(dialog->findChild<QLineEdit*>("animationPath")->text().endsWith("heads.gif") ||
                dialog->findChild<QLineEdit*>("animationPath")->text().contains("heads"));
        auto* ms = dialog->findChild<QSpinBox*>("frameMs");
        ms->selectAll();
        QTest::keyClicks(ms, "600");
        auto* path = dialog->findChild<QLineEdit*>("animationPath");
        path->selectAll();
        const QString out = m_f.dir.filePath("heads.gif");
        QTest::keyClicks(path, out);
        QSignalSpy done(w, &MainWindow::animationExported);
        auto* ok = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QTest::mouseClick(ok, Qt::LeftButton);
        QVERIFY(done.wait(30000));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        std::vector<int> delays;
        const auto frames = readGif(f.readAll(), &delays);
        const auto& t = w->view().trace;
        QCOMPARE(frames.size(), size_t(t.layers * (t.heads + 1)));
        QCOMPARE(delays.front(), 600);
        QCOMPARE(frames.front().size(), QSize(960, 540));
    }

    void noImageNoAnimation() {
        auto* w = m_f.window.get();
        AnimationChoice c;
        c.path = m_f.dir.filePath("t.gif");
        c.kind = AnimationKind::Timeline; // nothing on the timeline
        QVERIFY(!w->exportAnimation(c));
        QVERIFY(w->lastError().contains("Timeline"));
        QVERIFY(!QFile::exists(c.path));
    }

    // The next time the dialog opens it keeps the frame time and folder; on the Timeline panel
    // (its snapshots captioned) it offers the timeline first.
    void dialogRemembersAndFollowsThePanel() {
        auto* w = m_f.window.get();
        QVERIFY(w->openRunFolder(CL_SOURCE_DIR "/resources/models/default-run"));
        w->showPanel(QStringLiteral("timeline"));
        QTRY_VERIFY_WITH_TIMEOUT(!w->timelinePanel()->animationSnapshots().empty(), 60000);
        QTRY_VERIFY(w->findChildren<AnimationDialog*>().isEmpty()); // the last one is gone
        w->chooseAnimation();
        auto* dialog = w->findChild<AnimationDialog*>();
        QVERIFY(dialog);
        QCOMPARE(dialog->choice().kind, AnimationKind::Timeline);
        QCOMPARE(dialog->choice().style.frameMs, 600);
        QCOMPARE(QFileInfo(dialog->choice().path).absolutePath(),
                 QFileInfo(m_f.dir.path()).absoluteFilePath());
        QVERIFY(QFileInfo(dialog->choice().path).fileName().contains("timeline"));
        dialog->reject();
        w->showPanel(QStringLiteral("caption"));
    }
};

CL_TEST_MAIN(TestAnimation)
#include "tst_animation.moc"
