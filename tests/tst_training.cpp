// Watch it learn (issue 17 part 1): the Train panel driven through its real buttons on a tiny
// config: Start, the loss curve gains points, Pause stops them and Resume restarts them, a
// snapshot lands in the run folder and captions the image in every panel, Open in Timeline shows
// the run, Stop ends it with the last step kept, Save model writes a file captionlens-cli reads.
#include "model/api/threads.h"
#include "model/core/files.h"
#include "tests/cli_run.h"
#include "tests/gui_fixture.h"
#include "ui/panels/timeline_panel.h"
#include "ui/panels/train_panel.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QtTest>
#include "tests/test_main.h"

using namespace cl;
using cl::ui::TrainPanel;

class TestTraining : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QVERIFY(m_gui.start()); }
    void cleanupTestCase() { m_gui.stop(); }
    void trainsPausesSnapshotsStopsAndSaves();
    void refusesAFolderThatHoldsARun();
    void presetsFillTheRecipe();

  private:
    QPushButton* button(const QString& text) const;
    void click(const QString& text) {
        QPushButton* b = button(text);
        QVERIFY2(b && b->isVisible() && b->isEnabled(), qPrintable(text));
        QTest::mouseClick(b, Qt::LeftButton, {}, b->rect().center());
    }
    TrainPanel* panel() const { return m_gui.window->trainPanel(); }
    int points() const { return panel()->lossPlot()->graph(0)->dataCount(); }
    cltest::GuiFixture m_gui;
};

QPushButton* TestTraining::button(const QString& text) const {
    for (auto* b : panel()->findChildren<QPushButton*>())
        if (b->text() == text)
            return b;
    return nullptr;
}

namespace {

ui::TrainSettings tiny() {
    ui::TrainSettings s;
    s.layers = 1;
    s.heads = 2;
    s.width = 32;
    s.batch = 4;
    s.steps = 5000; // stopped long before
    s.evalEvery = 20;
    s.evalScenes = 10;
    return s;
}

} // namespace

void TestTraining::trainsPausesSnapshotsStopsAndSaves() {
    auto& w = *m_gui.window;
    cl::setThreadCount(2); // as --threads 2: the training run must leave it so
    QVERIFY(m_gui.openAndWait(m_gui.saveScene(7)));
    w.showPanel(QStringLiteral("train"));
    panel()->setSettings(tiny());
    const QString run = m_gui.dir.filePath(QStringLiteral("run"));
    panel()->setRunFolder(run);
    click(QStringLiteral("Start"));
    QVERIFY(panel()->run()->running());
    QTRY_VERIFY_WITH_TIMEOUT(points() > 5, 60000);
    QCOMPARE(cl::threadCount(), 2); // before: the run set the whole process's count to cores - 1

    click(QStringLiteral("Pause"));
    // The step in flight and those already posted still arrive: wait until the training thread
    // holds between two steps and what it posted is drawn, then the chart must stand still (a
    // chart still for half a second was not enough on a machine loaded by a training run).
    QTRY_VERIFY_WITH_TIMEOUT(panel()->run()->holding(), 60000);
    QTest::qWait(200);
    const int paused = points();
    QTest::qWait(1000);
    QCOMPARE(points(), paused);
    QVERIFY(panel()->statusText().startsWith(QStringLiteral("Paused")));
    click(QStringLiteral("Resume"));
    QTRY_VERIFY_WITH_TIMEOUT(points() > paused + 3, 30000);

    // The first snapshot: in the run folder, and the image on screen captioned by it everywhere.
    const QString first = run + QStringLiteral("/step000020.pt");
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(first), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(
        QFileInfo(QString::fromStdString(w.model().path)).path() == QFileInfo(first).path(), 60000);
    QCOMPARE(w.model().config.numLayers, int64_t(1));
    QTRY_VERIFY_WITH_TIMEOUT(panel()->probeText().startsWith(QStringLiteral("Probe after")), 30000);
    QVERIFY(panel()->lossPlot()->graph(2)->dataCount() >= 1); // held-out exact match
    // Snapshots the panel shows are not checkpoints the user opened: no recent files.
    for (const QString& recent : QSettings().value("recentCheckpoints").toStringList())
        QVERIFY2(!recent.startsWith(QDir(run).absolutePath()), qPrintable(recent));

    click(QStringLiteral("Open in Timeline"));
    QCOMPARE(w.currentPanel(), QStringLiteral("timeline"));
    QVERIFY(w.timelinePanel()->snapshots().contains(QFileInfo(first).absoluteFilePath()));

    w.showPanel(QStringLiteral("train"));
    QSignalSpy done(panel()->run(), &ui::TrainingRun::finished);
    click(QStringLiteral("Stop"));
    QVERIFY(done.wait(60000));
    QCOMPARE(done.first().first().toString(), QString());
    QVERIFY(!panel()->run()->running());
    const QString last = panel()->run()->latestModel();
    QVERIFY2(QFile::exists(last) && last.startsWith(QDir(run).absolutePath()), qPrintable(last));
    const int kept = int(QDir(run).entryList({QStringLiteral("*.pt")}).size());
    QTest::qWait(300);
    QCOMPARE(int(QDir(run).entryList({QStringLiteral("*.pt")}).size()), kept); // it stopped
    QVERIFY(button(QStringLiteral("Start"))->isEnabled());

    const QString saved = m_gui.dir.filePath(QStringLiteral("mine.pt"));
    cl::files::write(saved.toStdString(), "an older file, replaced in one step");
    QSignalSpy written(panel(), &TrainPanel::modelSaved);
    QVERIFY(panel()->saveModel(saved));
    QVERIFY(written.wait(60000));
    const auto info = cltest::runCli({"info", saved, "--json"});
    QVERIFY2(info.code == 0, info.err.constData());
    const auto j = QJsonDocument::fromJson(info.out).object();
    QVERIFY(j["metadata"].toObject()["steps"].toInt() >= 20);
    QVERIFY(j["world_check"].toBool()); // calibrated on the way
}

void TestTraining::refusesAFolderThatHoldsARun() {
    // A folder with checkpoints in it already is never trained into (or mixed in the Timeline).
    const QString run = m_gui.dir.filePath(QStringLiteral("taken"));
    QDir().mkpath(run);
    QFile::copy(cltest::kModel, run + QStringLiteral("/default.pt"));
    m_gui.window->showPanel(QStringLiteral("train"));
    panel()->setSettings(tiny());
    panel()->setRunFolder(run);
    QSignalSpy errors(panel(), &TrainPanel::errorRaised);
    click(QStringLiteral("Start"));
    QCOMPARE(errors.count(), 1);
    QVERIFY(errors.first().first().toString().contains(QStringLiteral("already holds a run")));
    QVERIFY(!panel()->run()->running());
}

void TestTraining::presetsFillTheRecipe() {
    // Chosen with the keyboard in the real combo box, as a person does.
    m_gui.window->showPanel(QStringLiteral("train"));
    panel()->setSettings(ui::TrainSettings::lecture());
    QComboBox* preset = nullptr;
    for (auto* c : panel()->findChildren<QComboBox*>())
        if (c->findText(QStringLiteral("Custom")) >= 0)
            preset = c;
    QVERIFY(preset);
    QCOMPARE(preset->count(), 5);
    QVERIFY(preset->currentText().startsWith(QStringLiteral("Lecture")));
    QCOMPARE(panel()->settings().steps, ui::TrainSettings::lecture().steps);
    QCOMPARE(panel()->settings().dropout, 0.0);
    preset->setFocus();
    QTest::keyClick(preset, Qt::Key_Down);
    QVERIFY(preset->currentText().startsWith(QStringLiteral("Quick look")));
    QCOMPARE(panel()->settings().width, ui::TrainSettings::quick().width);
    QCOMPARE(panel()->settings().steps, ui::TrainSettings::quick().steps);
    QTest::keyClick(preset, Qt::Key_Down);
    QVERIFY(preset->currentText().startsWith(QStringLiteral("Bundled")));
    QVERIFY(panel()->settings().varied);
    QCOMPARE(panel()->settings().steps, ui::TrainSettings::shipped().steps);
    QCOMPARE(panel()->settings().dropout, 0.1);
    QCOMPARE(panel()->settings().options().dropout, 0.1);
    QTest::keyClick(preset, Qt::Key_Down);
    QVERIFY(preset->currentText().startsWith(QStringLiteral("Varied world")));
    QVERIFY(panel()->settings().varied);
    QCOMPARE(panel()->settings().steps, 8000);
    QCOMPARE(panel()->settings().dropout, 0.0);
    QCOMPARE(panel()->settings().options().classicFloor, 0.15);
    // Any edit of the recipe makes it Custom.
    QSpinBox* layers = nullptr;
    for (auto* s : panel()->findChildren<QSpinBox*>())
        if (s->maximum() == 6)
            layers = s;
    QVERIFY(layers);
    layers->setFocus();
    QTest::keyClick(layers, Qt::Key_Up);
    QCOMPARE(preset->currentText(), QStringLiteral("Custom"));
    QCOMPARE(panel()->settings().layers, ui::TrainSettings::shipped().layers + 1);
    // The image grid (issue 38): a finer grid is a bigger input for the encoder.
    panel()->setSettings(ui::TrainSettings::lecture());
    QComboBox* grid = nullptr;
    for (auto* c : panel()->findChildren<QComboBox*>())
        if (c->findData(12) >= 0 && c->findData(8) >= 0)
            grid = c;
    QVERIFY(grid);
    QVERIFY(grid->currentText().startsWith(QStringLiteral("8 × 8")));
    grid->setFocus();
    QTest::keyClick(grid, Qt::Key_Down);
    QCOMPARE(preset->currentText(), QStringLiteral("Custom"));
    QCOMPARE(panel()->settings().grid, 12);
    QCOMPARE(panel()->settings().options().grid, int64_t(12));
    QCOMPARE(panel()->settings().options().imageSize, int64_t(96));
}

CL_TEST_MAIN(TestTraining)
#include "tst_training.moc"
