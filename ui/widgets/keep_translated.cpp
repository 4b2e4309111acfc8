#include "ui/widgets/keep_translated.h"

#include <QEvent>

namespace cl::ui {

namespace {

// A child of the owner: widgets pass LanguageChange on to their children, this one included.
class Reapply final : public QObject {
  public:
    Reapply(QObject* owner, std::function<void()> apply)
        : QObject(owner), m_apply(std::move(apply)) {}

  protected:
    bool event(QEvent* e) override {
        if (e->type() == QEvent::LanguageChange)
            m_apply();
        return QObject::event(e);
    }

  private:
    std::function<void()> m_apply;
};

} // namespace

void keepTranslated(QObject* owner, std::function<void()> apply) {
    apply();
    new Reapply(owner, std::move(apply));
}

} // namespace cl::ui
