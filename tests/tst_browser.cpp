// The Course data browser (issue 19): the course's folder listed, an image chosen by a click fills
// every panel with its ground truth and BLEU on screen, and photos fetched by URL from a local
// HTTP server started here (200, 404, a server that never answers, a body that is no image).
#include "tests/gui_fixture.h"
#include "ui/panels/attention_panel.h"
#include "ui/panels/caption_panel.h"
#include "ui/window/course_browser.h"
#include "ui/window/image_fetcher.h"

#include <QBuffer>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTcpServer>
#include <QTimer>
#include <QTcpSocket>
#include "tests/test_main.h"

using namespace cl;

namespace {

// Canned answers by path; /slow never answers. Counts the requests it was sent.
class TinyHttp : public QObject {
  public:
    TinyHttp() {
        m_server.listen(QHostAddress::LocalHost);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* s = m_server.nextPendingConnection())
                connect(s, &QTcpSocket::readyRead, s, [this, s] { answer(s); });
        });
        QImage image(40, 30, QImage::Format_RGB888);
        image.fill(Qt::darkCyan);
        QBuffer buffer(&m_png);
        buffer.open(QIODevice::WriteOnly);
        image.save(&buffer, "PNG");
    }
    QString url(const QString& path) const {
        return QStringLiteral("http://127.0.0.1:%1%2").arg(m_server.serverPort()).arg(path);
    }
    int requests = 0;

  private:
    void answer(QTcpSocket* s) {
        const QByteArray request = s->readAll();
        ++requests;
        const QByteArray path = request.split(' ').value(1);
        if (path.startsWith("/slow"))
            return;
        if (path.startsWith("/trickle")) { // a byte every 200 ms: never silent for 0.7 s
            s->write("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 100000\r\n\r\n");
            auto* drip = new QTimer(s);
            connect(drip, &QTimer::timeout, s, [s] { s->write("x"); });
            drip->start(200);
            return;
        }
        QByteArray status = "200 OK", type = "image/png", body = m_png;
        if (path.startsWith("/missing"))
            status = "404 Not Found", type = "text/plain", body = "no";
        else if (path.startsWith("/text"))
            type = "text/html", body = "<html>a web page, not a photo</html>";
        s->write("HTTP/1.1 " + status + "\r\nContent-Type: " + type +
                 "\r\nCache-Control: max-age=3600\r\nContent-Length: " +
                 QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
        s->disconnectFromHost();
    }
    QTcpServer m_server;
    QByteArray m_png;
};

} // namespace

class TestBrowser : public QObject {
    Q_OBJECT
  private slots:
    void fetcherAnswersEveryCase();
    void browserFillsEveryPanel();
    void courseFolderFromTheCommandLine();

  private:
    bool writeCourseData(const QString& urlPrefix);
    bool m_written = false;
    QTemporaryDir m_dir;
    cltest::GuiFixture m_f;
};

void TestBrowser::fetcherAnswersEveryCase() {
    TinyHttp http;
    QTemporaryDir cache;
    ui::ImageFetcher fetcher(nullptr, cache.path(), 700);
    QSignalSpy fetched(&fetcher, &ui::ImageFetcher::fetched);
    QSignalSpy failed(&fetcher, &ui::ImageFetcher::failed);
    fetcher.fetch(http.url("/ok.png"));
    QVERIFY(fetched.wait(5000));
    QCOMPARE(fetched.last().at(1).value<QImage>().size(), QSize(40, 30));
    fetcher.fetch(http.url("/ok.png")); // the disk cache answers: no second request
    QVERIFY(fetched.wait(5000));
    QCOMPARE(http.requests, 1);
    const struct {
        const char* path;
        const char* reason;
    } cases[] = {{"/missing", "not found (HTTP 404)"},
                 {"/slow", "no answer within 0.7 s"},
                 {"/trickle", "answering slower than 4 KB/s"},
                 {"/text", "not an image"}};
    for (const auto& c : cases) {
        fetcher.fetch(http.url(c.path));
        QVERIFY2(failed.wait(5000), c.path);
        QVERIFY2(failed.last().at(1).toString().contains(c.reason),
                 qPrintable(failed.last().at(1).toString()));
    }
    // A dead URL says so once: asked again, nothing is fetched and nothing repeated.
    const int before = http.requests;
    fetcher.fetch(http.url("/missing"));
    QTest::qWait(300);
    QCOMPARE(failed.count(), 4);
    QCOMPARE(http.requests, before);
    QVERIFY(fetcher.knownDead(http.url("/missing")));
}

bool TestBrowser::writeCourseData(const QString& urlPrefix) {
    if (m_written)
        return true;
    QProcess py;
    py.start(CL_PYTHON3, {CL_SOURCE_DIR "/tests/course_data.py", m_dir.path(), "300"});
    if (!py.waitForFinished(120000) || py.exitCode() != 0)
        return false;
    QProcess cli;
    cli.start(CL_CLI, {"import-cs231n", m_dir.filePath("course_model.pt"), "--vocab",
                       m_dir.filePath("coco_captioning/coco2014_vocab.json"), "-o",
                       m_dir.filePath("model.pt")});
    if (!cli.waitForFinished(120000) || cli.exitCode() != 0)
        return false;
    QFile urls(m_dir.filePath("coco_captioning/val2014_urls.txt"));
    if (!urls.open(QIODevice::WriteOnly))
        return false;
    for (int i = 0; i < 60; ++i)
        urls.write((urlPrefix + QString::number(i) + "\n").toUtf8());
    m_written = true;
    return true;
}

void TestBrowser::browserFillsEveryPanel() {
    CL_REQUIRE(!QString(CL_PYTHON3).isEmpty(), "/usr/bin/python3 with torch and h5py");
    TinyHttp http;
    QVERIFY(m_dir.isValid() && writeCourseData(http.url("/ok.png?image=")));
    QVERIFY(m_f.start());
    auto* w = m_f.window.get();
    const QString folder = m_dir.filePath("coco_captioning");
    // The shapes model cannot caption feature rows: said, nothing changes.
    w->openCourseData(folder);
    auto* browser = w->courseBrowser();
    auto* table = browser->table();
    QTRY_VERIFY_WITH_TIMEOUT(!browser->loading(), 30000);
    QCOMPARE(browser->table()->model()->rowCount(), 60);
    QSignalSpy errors(w, &ui::MainWindow::errorShown);
    browser->choose(0);
    QCOMPARE(errors.count(), 1);
    QVERIFY(w->lastError().contains("open a course (feature) checkpoint"));

    QSignalSpy scored(browser, &ui::CourseBrowser::scored);
    w->openCheckpoint(m_dir.filePath("model.pt"));
    QVERIFY(QTest::qWaitFor([&] { return !w->busy() && w->model().config.inputDim == 16; }, 30000));
    // The list gains the model's caption and BLEU-1 of its first images, computed aside.
    QVERIFY(scored.wait(30000));
    QVERIFY(!table->model()->index(10, 2).data().toString().isEmpty());
    QVERIFY(table->model()->index(10, 3).data().toString().startsWith("0.") ||
            table->model()->index(10, 3).data().toString() == "1.000");
    // Search: only rows whose captions mention a cube. With the list focused (a person clicked
    // in it, then typed into the search), the filter moving the current row chooses nothing:
    // that captioned an image nobody chose, and the click below then chose it again (no caption).
    QApplication::setActiveWindow(browser);
    table->setFocus();
    QTRY_VERIFY(table->hasFocus());
    QSignalSpy chosen(browser, &ui::CourseBrowser::imageChosen);
    browser->search()->setText("cube");
    const int cubes = browser->table()->model()->rowCount();
    QVERIFY(cubes > 0 && cubes < 60);
    browser->search()->clear();
    QCOMPARE(chosen.count(), 0);
    // A click on the fourth row, where a person clicks.
    QSignalSpy views(w, &ui::MainWindow::viewUpdated);
    const QModelIndex index = table->model()->index(3, 1);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(index).center());
    QVERIFY2(views.wait(60000), qPrintable(w->lastError()));
    const qint64 image = table->model()->index(3, 0).data().toLongLong();
    QCOMPARE(w->view().imageName, QString("val image %1").arg(image));
    QVERIFY(!w->view().trace.text().empty());
    // Every panel shows it: the caption panel names it.
    bool named = false;
    for (auto* l : w->captionPanel()->findChildren<QLabel*>())
        named = named || l->text().contains(QString("val image %1").arg(image));
    QVERIFY(named);
    // The Attention panel says the head count was assumed at import (no --heads given).
    w->showPanel("attention");
    QVERIFY2(w->attentionPanel()->headCountText().contains("2 heads per layer, assumed at import"),
             qPrintable(w->attentionPanel()->headCountText()));
    // The ground truth, the model's caption and its BLEU-1 are on screen, and in the list.
    const auto& listed = browser->listing().images[size_t(image)];
    QVERIFY(browser->references()->text().contains(listed.references.first().toHtmlEscaped()));
    QTRY_VERIFY(browser->caption()->text().contains("BLEU-1"));
    QVERIFY(browser->caption()->text().contains(QString::fromStdString(w->view().trace.text())));
    QVERIFY(!table->model()->index(3, 3).data().toString().isEmpty());
    // The photo arrived from its URL.
    QTRY_VERIFY_WITH_TIMEOUT(!browser->photo()->pixmap().isNull(), 10000);
    m_f.stop();
}

// Issue 42: a course folder opened with a course model captions its first image at once, from the
// File menu's path and from the command line (which used to caption the bundled sample first and
// exit 1 with --screenshot); a feature file of another width says which widths clash.
void TestBrowser::courseFolderFromTheCommandLine() {
    CL_REQUIRE(!QString(CL_PYTHON3).isEmpty(), "/usr/bin/python3 with torch and h5py");
    QVERIFY(m_dir.isValid() && writeCourseData("http://127.0.0.1:1/"));
    const QString folder = m_dir.filePath("coco_captioning");
    QVERIFY(m_f.start());
    auto* w = m_f.window.get();
    w->openCheckpoint(m_dir.filePath("model.pt"));
    QVERIFY(QTest::qWaitFor([&] { return !w->busy() && w->model().config.inputDim == 16; }, 30000));
    w->openCourseData(folder);
    QTRY_COMPARE_WITH_TIMEOUT(w->view().imageName, QString("val image 0"), 30000);
    QVERIFY(!w->view().trace.text().empty());
    QSignalSpy errors(w, &ui::MainWindow::errorShown);
    w->openFeatures(folder + "/val2014_vgg16_fc7.h5", 0); // 48-wide rows, a 16-wide model
    QVERIFY(errors.wait(30000));
    QVERIFY2(w->lastError().contains("width 48 but the model expects 16"),
             qPrintable(w->lastError()));
    QCOMPARE(w->view().imageName, QString("val image 0")); // the view stays
    m_f.stop();

    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    env.insert("HOME", m_dir.path());
    app.setProcessEnvironment(env);
    const QString shot = m_dir.filePath("course.png");
    app.start(QFileInfo(CL_CLI).absolutePath() + "/../gui/captionlens",
              {"--checkpoint", m_dir.filePath("model.pt"), "--course-data", folder,
               "--screenshot", shot});
    QVERIFY(app.waitForFinished(90000));
    QVERIFY2(app.exitCode() == 0, app.readAllStandardError().constData());
    QVERIFY(QFileInfo(shot).size() > 0);
}

CL_TEST_MAIN(TestBrowser)
#include "tst_browser.moc"
