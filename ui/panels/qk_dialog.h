#pragma once
// The Q . K walkthrough of one head for one query word (api/walkthrough.h): every key with its
// dot product, the scaling, the mask, the softmax weight; the query, key and value vectors on
// hover; the weighted sum and the head's share of the block's output.
#include "model/core/walkthrough.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QTableWidget;

namespace cl::ui {

class QkDialog final : public QDialog {
    Q_OBJECT
  public:
    explicit QkDialog(QWidget* parent = nullptr);
    // The query the window's selection names: the caption's step and token, layer and head.
    void setQuery(int64_t step, const QString& token, int64_t layer, int64_t head);
    void setResult(const AttentionWalkthrough& result);
    void setFailed(const QString& message);
    WalkthroughOptions options() const;
    QComboBox* kindBox() const { return m_kind; }
    QTableWidget* table() const { return m_table; }
    QString summary() const;

  signals:
    void walkthroughRequested(const cl::WalkthroughOptions& options);

  private:
    void request();

    QComboBox* m_kind;
    QLabel* m_heading;
    QLabel* m_formula;
    QTableWidget* m_table;
    QLabel* m_summary;
    WalkthroughOptions m_options;
    QString m_token;
};

} // namespace cl::ui
