#ifndef KEEPTRYING_CONCURRENCYLIMITER_P_H
#define KEEPTRYING_CONCURRENCYLIMITER_P_H

#include <QtCore/QHash>
#include <QtCore/QString>

#include <deque>

namespace KeepTrying {

class RetryingReplyPrivate;

// How many attempts may be in flight to one origin, adapted like TCP's congestion window
// (additive increase, multiplicative decrease): an overloaded server (5xx, 429, refused
// connections) halves the window, answers grow it again. Requests beyond it wait in order,
// without attempts, instead of adding to the overload; each freed slot goes to the next.
class ConcurrencyLimiter
{
public:
    enum class Outcome { Answered, Overloaded, Neutral };

    int initialLimit = 6; // Qt runs at most six HTTP/1.1 connections per host anyway
    int minimumLimit = 1;
    int maximumLimit = 256;
    bool isEnabled() const { return enabled; }
    void setEnabled(bool on);

    bool tryStart(const QString &origin);
    void finished(const QString &origin, Outcome outcome);
    void wait(const QString &origin, RetryingReplyPrivate *waiter);
    void cancelWait(const QString &origin, RetryingReplyPrivate *waiter);
    double limit(const QString &origin) const;

private:
    struct Origin
    {
        double limit = 0;
        int inFlight = 0;
        std::deque<RetryingReplyPrivate *> waiters;
    };
    Origin &origin(const QString &key);
    void grantWaiting(Origin &o);

    QHash<QString, Origin> m_origins;
    bool enabled = true;
};

} // namespace KeepTrying

#endif
