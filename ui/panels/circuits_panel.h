#pragma once
// Circuits (issue 39): what the model uses, not only where it looks. A clean image (the one on
// screen) and a corrupted one that differs in one known thing (a scene's object changed with one
// click, or any second image of the same size); every site patched from one run into the other:
// the image memory per cell, the residual stream after every layer, every head's output and every
// feed-forward block at every position, with attribution patching's one-pass estimate beside the
// real figure and their correlation; the logit lens and direct logit attribution of the clean
// caption. The work runs on the model worker; Cancel drops its answer.
#include "ui/panels/caption_view.h"
#include "ui/panels/panel.h"
#include "ui/window/requests.h"

#include <QWidget>

#include <functional>

class QBoxLayout;
class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QCustomPlot;

namespace cl::ui {

class AttentionTile;
class HeatmapPlot;

class CircuitsPanel final : public QWidget, public Panel {
    Q_OBJECT
  public:
    explicit CircuitsPanel(QWidget* parent = nullptr);
    void setView(const CaptionView& view) override;
    QString exportTag() const override; // "colour-of-1-pos4"

    // The pair: object `index` of the scene on screen with `change` (Change's order), or any
    // image of the clean one's size. False, with status() saying why, when it cannot be made.
    bool makeScenePair(int index, int change);
    bool setCorruptImage(const QString& path);
    void run();    // asks for the patching of the pair (patchRequested)
    void cancel(); // drops the answer in flight
    void setResult(const CircuitsResult& result);
    void setFailed(const QString& message);
    bool writeCsv(const QString& path); // every site, as sitesCsv

    bool running() const { return m_running; }
    QString status() const;
    const CircuitsResult& result() const { return m_result; }
    bool showsEstimate() const;
    void setShowsEstimate(bool on);
    int measuredWord() const; // -1: where the captions part; else the input position
    void setMeasuredWord(int position);
    void setNoising(bool on);
    // What a lesson keeps of it: the scene change (object, change) or none, the word, noising.
    int pairObject() const { return m_pairObject; }
    int pairChange() const { return m_pairChange; }
    bool noising() const;

    // The heads × positions grids: self-attention heads, or (cross) cross-attention heads.
    HeatmapPlot* headPlot(bool cross = true) const { return cross ? m_crossHeads : m_heads; }
    HeatmapPlot* layerPlot() const { return m_layers; }
    AttentionTile* cellTile() const { return m_cells; }
    QTableWidget* lensTable() const { return m_lens; }
    QCustomPlot* dlaChart() const { return m_dla; }
    QComboBox* objectBox() const { return m_object; }
    QComboBox* changeBox() const { return m_change; }
    QPushButton* pairButton() const { return m_makePair; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QComboBox* showBox() const { return m_show; }
    int dlaPosition() const { return m_dlaPosition; }
    // The hover text of the image-cell map at `pos` (its widget's pixels); empty off the grid.
    QString describeCellAt(QPoint pos) const;
    void setDlaPosition(int position);

  signals:
    void patchRequested(const cl::RgbImage& corrupt, const cl::PatchOptions& options);
    void cancelRequested();
    void csvRequested(); // the window asks where to write it

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override; // the cell map's tooltips
    void resizeEvent(QResizeEvent* event) override;             // foldHeads
    void changeEvent(QEvent* event) override;                   // a new language

  private:
    QWidget* buildPairBox();
    QWidget* buildResults();
    void fillObjects();
    // title: made again when the language changes
    void setCorrupt(const RgbImage& rgb, std::function<QString()> title);
    void clearPair(std::function<QString()> title); // no corrupted image, no figures
    void clearResult();
    void fillWords();
    void setRunning(bool on);
    void showResult();    // every picture from m_result
    void showGrids();     // heads, layers, cells (real or estimate)
    void showLens();      // the logit lens table
    void showDla();       // the bars of m_dlaPosition
    void showAttention(); // the measured word's cross-attention on the clean image
    void foldHeads();     // the two head grids side by side where they fit, else stacked
    QStringList inputWords() const;

    CaptionView m_view;
    RgbImage m_corrupt;
    QImage m_corruptImage;
    int m_pairObject = -1, m_pairChange = -1;
    CircuitsResult m_result;
    bool m_hasResult = false, m_running = false;
    std::function<QString()> m_corruptTitle;
    int m_dlaPosition = 0;

    QComboBox* m_object;
    QComboBox* m_change;
    QPushButton* m_makePair;
    QPushButton* m_openCorrupt;
    QComboBox* m_word;
    QCheckBox* m_noising;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QProgressBar* m_busy;
    QLabel* m_status;
    AttentionTile* m_cleanTile;
    AttentionTile* m_corruptTile;
    QWidget* m_results; // hidden until the first answer
    QLabel* m_summary;
    QComboBox* m_show;
    HeatmapPlot* m_heads;      // self-attention heads
    HeatmapPlot* m_crossHeads; // cross-attention heads: side by side, half as tall as one grid
    QBoxLayout* m_headRow;
    HeatmapPlot* m_layers;
    AttentionTile* m_cells;
    AttentionTile* m_attention;
    QTableWidget* m_lens;
    QCustomPlot* m_dla;
    QPushButton* m_csv;
};

} // namespace cl::ui
