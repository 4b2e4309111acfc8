// The teaching panels: positional-encoding lab and step-by-step decoding (offscreen).
#include "tests/gui_fixture.h"
#include "ui/panels/attention_panel.h"
#include "ui/panels/caption_panel.h"
#include "ui/panels/decode_panel.h"
#include "ui/panels/heads_panel.h"
#include "ui/panels/pe_panel.h"
#include "ui/panels/selection.h"
#include "ui/widgets/heatmap_plot.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMouseEvent>
#include <QProcess>

#include <cmath>
#include "tests/test_main.h"

using namespace cl;

class TestTeaching : public QObject {
    Q_OBJECT
  private slots:
    void init() { QVERIFY(m_f.start()); }
    void cleanup() { m_f.stop(); }
    void peHeatmapFollowsTheSeedFormula();
    void steppingShowsTheTraceTopK();
    void temperatureReshapesButKeepsOrder();
    void forcingMatchesCliForcePrefix();
    void removingPositionalEncodingChangesTheModel();
    void ablatingALayerChangesTheOutput();
    void presenterModeEnlargesAndSteps();

  private:
    cltest::GuiFixture m_f;
};

void TestTeaching::peHeatmapFollowsTheSeedFormula() {
    QVERIFY(m_f.openAndWait(m_f.saveScene(11)));
    auto* pe = m_f.window->pePanel();
    // Defaults follow the loaded model.
    QCOMPARE(pe->table()->rows(), int(m_f.window->model().config.maxLength));
    QCOMPARE(pe->table()->cols(), int(m_f.window->model().config.wordvecDim));
    pe->setSize(40, 64);
    auto* data = pe->table()->colorMap()->data();
    for (auto [pos, dim] : {std::pair{0, 0}, {0, 1}, {3, 2}, {17, 9}, {39, 63}, {25, 40}}) {
        const double angle = pos * std::pow(10000.0, -double(dim - dim % 2) / 64);
        const double expected = dim % 2 ? std::cos(angle) : std::sin(angle);
        QVERIFY2(std::abs(data->cell(dim, pos) - expected) < 1e-5,
                 qPrintable(QString("pos %1 dim %2: %3 vs %4")
                                .arg(pos)
                                .arg(dim)
                                .arg(data->cell(dim, pos))
                                .arg(expected)));
    }
    QCOMPARE(pe->similarity()->rows(), 40);
    QVERIFY(std::abs(pe->similarity()->colorMap()->data()->cell(7, 7) - 1.0) <
            1e-5); // cosine with itself
    QCOMPARE(pe->lines()->graphCount(), 4);
}

void TestTeaching::steppingShowsTheTraceTopK() {
    QVERIFY(m_f.openAndWait(m_f.saveScene(12)));
    auto* d = m_f.window->decodePanel();
    const auto& trace = m_f.window->view().trace;
    d->first();
    QCOMPARE(d->step(), 0);
    for (int t = 0; t < 3; ++t)
        d->next();
    QCOMPARE(d->step(), 3);
    QCOMPARE(m_f.window->selection()->step(), 3); // in step with the other panels
    const auto shown = d->candidates();
    const auto& topK = trace.steps[3].topK;
    QVERIFY(shown.size() >= topK.size());
    for (size_t i = 0; i < topK.size(); ++i) {
        QCOMPARE(shown[i].first, QString::fromStdString(topK[i].token));
        QVERIFY(std::abs(shown[i].second - topK[i].prob) < 1e-5);
    }
    d->last();
    QCOMPARE(d->step(), int(trace.steps.size()) - 1);
}

void TestTeaching::temperatureReshapesButKeepsOrder() {
    QVERIFY(m_f.openAndWait(m_f.saveScene(13)));
    auto* d = m_f.window->decodePanel();
    d->first();
    const auto cold = d->candidates();
    d->setTemperature(3.0);
    const auto hot = d->candidates();
    QCOMPARE(hot.front().first, cold.front().first);   // greedy still takes the argmax
    QVERIFY(hot.front().second < cold.front().second); // a flatter distribution
    d->setTemperature(1.0);
}

void TestTeaching::forcingMatchesCliForcePrefix() {
    const QString image = m_f.saveScene(14);
    QVERIFY(m_f.openAndWait(image));
    auto* d = m_f.window->decodePanel();
    d->first();
    d->next();                                       // step 1: the size word
    const QString forced = d->candidates()[1].first; // the runner-up
    const QString first = QString::fromStdString(m_f.window->view().trace.steps[0].token);
    d->forceCandidate(1);
    QTRY_VERIFY_WITH_TIMEOUT(d->showingBranch(), 30000);
    const auto& branch = d->shownTrace();
    QCOMPARE(QString::fromStdString(branch.steps[1].token), forced);
    QProcess cli;
    cli.start(CL_CLI, {"caption", "--checkpoint", cltest::kModel, "--json", "--force-prefix",
                       first + " " + forced, image});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    const auto tokens =
        QJsonDocument::fromJson(cli.readAllStandardOutput()).object()["tokens"].toArray();
    QCOMPARE(tokens.size(), qsizetype(branch.steps.size()));
    for (int i = 0; i < tokens.size(); ++i)
        QCOMPARE(tokens[i].toString(), QString::fromStdString(branch.steps[i].token));
    d->backToOriginal();
    QVERIFY(!d->showingBranch());
}

void TestTeaching::removingPositionalEncodingChangesTheModel() {
    // The model input changes (probabilities move); on the default model the caption usually does.
    int changedCaptions = 0;
    for (quint64 seed : {21, 22, 23}) {
        QVERIFY(m_f.openAndWait(m_f.saveScene(seed)));
        QSignalSpy spy(m_f.window.get(), &ui::MainWindow::viewUpdated);
        m_f.window->pePanel()->findChild<QPushButton*>()->click();
        QTRY_VERIFY_WITH_TIMEOUT(m_f.window->pePanel()->ablationText().contains("Without"), 30000);
        const QString text = m_f.window->pePanel()->ablationText();
        const QString normal = QString::fromStdString(m_f.window->view().trace.text());
        const QString without = text.mid(text.indexOf("</b>: ") + 6);
        changedCaptions += without != normal;
    }
    QVERIFY(changedCaptions >= 1);
}

void TestTeaching::ablatingALayerChangesTheOutput() {
    QVERIFY(m_f.openAndWait(m_f.saveScene(31)));
    const auto before = m_f.window->view().trace;
    auto* heads = m_f.window->headsPanel();
    const int n = int(m_f.window->model().config.numHeads);
    QSignalSpy spy(m_f.window.get(), &ui::MainWindow::viewUpdated);
    for (int kind = 0; kind < 2; ++kind)
        for (int h = 0; h < n; ++h)
            heads->setHeadOff(1, kind, h, true); // all of layer 2
    QTRY_VERIFY_WITH_TIMEOUT(!m_f.window->busy() && spy.count() >= 1, 30000);
    QCOMPARE(heads->offCount(), 2 * n);
    const auto after = m_f.window->view().trace;
    bool changed = after.text() != before.text();
    for (size_t t = 0; t < std::min(after.steps.size(), before.steps.size()); ++t)
        changed = changed || std::abs(after.steps[t].prob - before.steps[t].prob) > 1e-3;
    QVERIFY(changed);
    // Reset restores the model exactly.
    heads->reset();
    QTRY_VERIFY_WITH_TIMEOUT(!m_f.window->busy() && spy.count() >= 2, 30000);
    QCOMPARE(m_f.window->view().trace.text(), before.text());
    QCOMPARE(m_f.window->view().trace.steps[0].prob, before.steps[0].prob);
}

void TestTeaching::presenterModeEnlargesAndSteps() {
    QVERIFY(m_f.openAndWait(m_f.saveScene(32)));
    auto* w = m_f.window.get();
    auto* plot = w->attentionPanel()->largePlot();
    const double before = plot->xAxis->tickLabelFont().pointSizeF();
    const double widgetBefore = w->captionPanel()->font().pointSizeF();
    w->showPanel("attention");
    w->setPresenterMode(true);
    QVERIFY(w->presenterMode());
    QVERIFY(plot->xAxis->tickLabelFont().pointSizeF() > 1.3 * before);
    QVERIFY(w->captionPanel()->font().pointSizeF() > 1.3 * widgetBefore);
    // The pointer's cell is outlined on heatmaps.
    const QPoint centre = plot->axisRect()->rect().center();
    QMouseEvent move(QEvent::MouseMove, QPointF(centre), QPointF(plot->mapToGlobal(centre)),
                     Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(plot, &move);
    QVERIFY(plot->pointerCellVisible());
    // PageDown steps the word in every panel.
    w->selection()->setStep(0);
    QTest::keyClick(w, Qt::Key_PageDown);
    QCOMPARE(w->selection()->step(), 1);
    QTest::keyClick(w, Qt::Key_PageUp);
    QCOMPARE(w->selection()->step(), 0);
    w->setPresenterMode(false);
    QCOMPARE(plot->xAxis->tickLabelFont().pointSizeF(), before);
}

CL_TEST_MAIN(TestTeaching)
#include "tst_teaching.moc"
