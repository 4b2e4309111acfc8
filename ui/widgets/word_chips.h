#pragma once
// The caption as a row of word chips. Hovering previews a word, clicking selects it.
#include <QWidget>

class QPushButton;

namespace cl::ui {

class FlowLayout;

class WordChips final : public QWidget {
    Q_OBJECT
  public:
    explicit WordChips(QWidget* parent = nullptr);
    // One chip per decode step; the <END> step is shown too (its attention is real).
    void setWords(const QStringList& words, const std::vector<float>& probs);
    void setSelected(int index);
    QPushButton* chip(int index) const;
    int count() const { return static_cast<int>(m_chips.size()); }

  signals:
    void wordClicked(int index);
    void wordHovered(int index); // -1 when the pointer leaves the chips

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override; // a new font (presenter mode) resizes every chip

  private:
    QString chipStyle() const;
    FlowLayout* m_layout;
    std::vector<QPushButton*> m_chips;
};

} // namespace cl::ui
