// GUI soak (offscreen): hundreds of rapid image and checkpoint switches, some corrupt, fired while
// captioning runs. No crash, the last valid request wins, memory stays bounded (RSS printed).
#include "tests/gui_fixture.h"

#include <QFile>

#include <fstream>
#include "tests/test_main.h"

using namespace cl;

namespace {

long rssKiB() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stol(line.substr(6));
    return 0;
}

} // namespace

class TestSoak : public QObject {
    Q_OBJECT
  private slots:
    void init() { QVERIFY(m_f.start()); }
    void cleanup() { m_f.stop(); }
    void rapidSwitchesWithCorruptFiles();

  private:
    cltest::GuiFixture m_f;
};

void TestSoak::rapidSwitchesWithCorruptFiles() {
    const QString other = QStringLiteral(CL_SOURCE_DIR "/resources/models/no-position2d.pt");
    const QString badImage = m_f.dir.filePath("bad.png"), badModel = m_f.dir.filePath("bad.pt");
    {
        QFile f(badImage);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("\x89PNG\r\n\x1a\n broken");
        QFile g(badModel);
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write("PK\x03\x04 not really a zip");
    }
    const QString good = m_f.saveScene(77);
    QVERIFY(m_f.openAndWait(good));
    const long before = rssKiB();
    for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < 100; ++i) {
            switch (i % 10) {
            case 3:
                m_f.window->openImage(badImage);
                break;
            case 5:
                m_f.window->openCheckpoint(i % 20 == 5 ? other : cltest::kModel);
                break;
            case 7:
                m_f.window->openCheckpoint(badModel);
                break;
            default:
                m_f.window->openRandomScene(quint64(round * 1000 + i));
            }
            if (i % 25 == 0)
                QCoreApplication::processEvents(); // let some results land mid-burst
        }
        // End on a valid checkpoint and image: they must win.
        m_f.window->openCheckpoint(cltest::kModel);
        m_f.window->openRandomScene(4242);
        QTRY_VERIFY_WITH_TIMEOUT(!m_f.window->busy(), 120000);
        QCOMPARE(QString::fromStdString(m_f.window->model().path), cltest::kModel);
        QCOMPARE(m_f.window->view().imageName, QString("scene 4242"));
    }
    // The caption on screen is the model's caption of that scene.
    const QString shown = QString::fromStdString(m_f.window->view().trace.text());
    QVERIFY(m_f.openAndWait(m_f.saveScene(4242)));
    QCOMPARE(QString::fromStdString(m_f.window->view().trace.text()), shown);
    const long after = rssKiB();
    qInfo("RSS before %ld KiB, after 3 rounds of 100 switches %ld KiB", before, after);
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CL_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CL_SANITIZED 1
#endif
#endif
#ifdef CL_SANITIZED
    qInfo("memory bound not checked: the sanitizer's quarantine and shadow memory dominate RSS");
#else
    QVERIFY2(after < before + 150 * 1024, "memory grew by more than 150 MiB");
#endif
}

CL_TEST_MAIN(TestSoak)
#include "tst_soak.moc"
