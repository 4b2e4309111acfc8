// File > Export Web Page and the page builder (issue 40): the page of the caption on screen,
// opened on the selected word, layer and head; its data cannot break out of the script block
// whatever words a checkpoint holds. The page in a browser: tests/web_page_test.py.
#include "app/common/web_page.h"
#include "tests/gui_fixture.h"
#include "ui/panels/selection.h"

#include <QFile>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

#include "tests/test_main.h"

using namespace cl;

namespace {

// The JSON the page carries.
nlohmann::json pageData(const std::string& page) {
    const std::string open = "<script id=\"captionlens-data\" type=\"application/json\">";
    const auto a = page.find(open) + open.size();
    return nlohmann::json::parse(page.substr(a, page.find("</script>", a) - a));
}

} // namespace

class TestWebExport : public QObject {
    Q_OBJECT
    cltest::GuiFixture m_f;

  private slots:
    void initTestCase() { QVERIFY(m_f.start()); }
    void cleanupTestCase() { m_f.stop(); }

    void exportsTheCaptionOnScreen() {
        auto* w = m_f.window.get();
        QVERIFY(m_f.openAndWait(CL_SOURCE_DIR "/resources/samples/three-shapes.png"));
        w->selection()->setStep(3);
        w->selection()->setLayerHead(0, 2);
        const QString path = m_f.dir.filePath("page.html");
        QVERIFY(w->exportWebPage(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const std::string page = f.readAll().toStdString();
        const auto d = pageData(page);
        QCOMPARE(QString::fromStdString(d["caption"]), QString::fromStdString(w->view().trace.text()));
        QCOMPARE(d["selection"]["step"].get<int>(), 3);
        QCOMPARE(d["selection"]["layer"].get<int>(), 0);
        QCOMPARE(d["selection"]["head"].get<int>(), 2);
        QVERIFY(d["image"].get<std::string>().rfind("data:image/png;base64,iVBOR", 0) == 0);
        QCOMPARE(d["cross_attention"].size(), size_t(w->view().trace.layers));
        QCOMPARE(d["grid_map"]["grid"].get<int>() * d["grid_map"]["grid"].get<int>(),
                 int(w->view().trace.memoryTokens));
        QVERIFY(page.size() < 2u << 20);
        // Nothing outside the file: no address, and the page says so to the browser.
        QVERIFY(!QString::fromStdString(page).contains(QRegularExpression("https?://")));
        QVERIFY(page.find("default-src 'none'") != std::string::npos);
    }

    void noCaptionNoPage() {
        auto* w = m_f.window.get();
        w->setWebPageMaker({});
        QVERIFY(!w->exportWebPage(m_f.dir.filePath("none.html")));
        QVERIFY(w->lastError().contains("open an image"));
        QVERIFY(!QFile::exists(m_f.dir.filePath("none.html")));
    }

    // A checkpoint's words are data: one that reads "</script>" stays inside the JSON.
    void hostileWordsStayData() {
        WebPageInput in;
        DecodeStep s;
        s.token = "</script><script>alert(1)</script>";
        s.selfAttn = {1.f};
        in.trace.steps = {s};
        in.trace.layers = 1;
        in.trace.heads = 1;
        in.model.config.memory = MemoryKind::Features;
        in.model.config.numLayers = 1;
        in.model.config.numHeads = 1;
        in.model.config.wordvecDim = 4;
        in.model.path = "x.pt";
        const std::string page = webPage(in);
        QCOMPARE(page.find("alert(1)</script>"), std::string::npos);
        QCOMPARE(pageData(page)["tokens"][0].get<std::string>(), s.token);
        QCOMPARE(base64("ab?"), std::string("YWI/"));
        QCOMPARE(base64("a"), std::string("YQ=="));
    }
};

CL_TEST_MAIN(TestWebExport)
#include "tst_webexport.moc"
