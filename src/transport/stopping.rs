//! The daemon's stop as a session watches it: a flag checked on every event, not the
//! cancellation token's future polled on every event. The same for any end a session waits
//! on with it ([`Stopping::on`]: a player's session also ends when their secret changes).
//!
//! A token's future takes two locks on every poll (the token's node, then its notifier's list
//! of waiters), and a session asks whether it should stop before each of its events, several
//! times a move. Here the future is polled once with a waker of its own, which raises a flag
//! and wakes the session when the token is cancelled; an event reads the flag, and the future
//! is polled again only once it is raised.
//!
//! ```
//! use std::task::{Context, Poll, Waker};
//! use ccrelay::transport::stopping::Stopping;
//! use tokio_util::sync::CancellationToken;
//!
//! let token = CancellationToken::new();
//! let mut stopping = Stopping::new(&token);
//! let mut cx = Context::from_waker(Waker::noop());
//! assert!(stopping.poll(&mut cx).is_pending());
//! token.cancel();
//! assert!(stopping.poll(&mut cx).is_ready());
//! ```

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Wake, Waker};

use futures::task::AtomicWaker;
use tokio_util::sync::CancellationToken;

/// A token's cancellation (or another end), cheap to ask about again and again from one task.
pub struct Stopping {
    cancelled: Pin<Box<dyn Future<Output = ()> + Send>>,
    signal: Arc<Signal>,
    /// The waker the token's future is polled with: [`Signal`]'s.
    own: Waker,
    /// Whether the future has been polled since it was made or last woken.
    armed: bool,
    /// Whether the future has ended (it is not polled again).
    ended: bool,
}

/// Raised by the token's future's waker; wakes the task that watches.
struct Signal {
    raised: AtomicBool,
    task: AtomicWaker,
}

impl Wake for Signal {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        // Raised before the task is woken, so the task sees it when it runs.
        self.raised.store(true, Ordering::Release);
        self.task.wake();
    }
}

impl Stopping {
    /// Watches `token` (through a child of its own, so that a session's watch takes no lock
    /// every other session's takes).
    pub fn new(token: &CancellationToken) -> Stopping {
        Stopping::on(token.child_token().cancelled_owned())
    }

    /// Watches `end`, a future polled only when its own waker says it may have ended.
    pub fn on(end: impl Future<Output = ()> + Send + 'static) -> Stopping {
        let signal = Arc::new(Signal {
            raised: AtomicBool::new(false),
            task: AtomicWaker::new(),
        });
        Stopping {
            cancelled: Box::pin(end),
            own: Waker::from(Arc::clone(&signal)),
            signal,
            armed: false,
            ended: false,
        }
    }

    /// Ready once the token is cancelled (the future has ended); else `cx` is woken when it
    /// is.
    pub fn poll(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        if self.ended {
            return Poll::Ready(());
        }
        // Registered before the flag is read: a cancellation after the read wakes this task.
        self.signal.task.register(cx.waker());
        if self.armed && !self.signal.raised.swap(false, Ordering::AcqRel) {
            return Poll::Pending;
        }
        self.armed = true;
        let polled = self
            .cancelled
            .as_mut()
            .poll(&mut Context::from_waker(&self.own));
        self.ended = polled.is_ready();
        polled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts its wakes.
    struct Count(std::sync::atomic::AtomicUsize);

    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn a_cancellation_after_the_first_poll_wakes_the_task_and_is_then_ready() {
        let token = CancellationToken::new();
        let mut stopping = Stopping::new(&token);
        let count = Arc::new(Count(Default::default()));
        let waker = Waker::from(Arc::clone(&count));
        let mut cx = Context::from_waker(&waker);
        assert!(stopping.poll(&mut cx).is_pending());
        assert!(stopping.poll(&mut cx).is_pending());
        assert_eq!(count.0.load(Ordering::SeqCst), 0);
        token.cancel();
        assert_eq!(count.0.load(Ordering::SeqCst), 1);
        assert!(stopping.poll(&mut cx).is_ready());
    }

    #[test]
    fn a_token_cancelled_before_the_first_poll_is_ready_at_once() {
        let token = CancellationToken::new();
        let mut stopping = Stopping::new(&token);
        token.cancel();
        assert!(
            stopping
                .poll(&mut Context::from_waker(Waker::noop()))
                .is_ready()
        );
    }

    #[test]
    fn the_task_woken_is_the_one_that_polled_last() {
        let token = CancellationToken::new();
        let mut stopping = Stopping::new(&token);
        let (first, second) = (
            Arc::new(Count(Default::default())),
            Arc::new(Count(Default::default())),
        );
        let first_waker = Waker::from(Arc::clone(&first));
        let second_waker = Waker::from(Arc::clone(&second));
        assert!(
            stopping
                .poll(&mut Context::from_waker(&first_waker))
                .is_pending()
        );
        assert!(
            stopping
                .poll(&mut Context::from_waker(&second_waker))
                .is_pending()
        );
        token.cancel();
        assert_eq!(first.0.load(Ordering::SeqCst), 0);
        assert_eq!(second.0.load(Ordering::SeqCst), 1);
        assert!(
            stopping
                .poll(&mut Context::from_waker(&second_waker))
                .is_ready()
        );
    }

    #[tokio::test]
    async fn a_task_waiting_on_nothing_else_stops_when_the_token_is_cancelled() {
        let token = CancellationToken::new();
        let mut stopping = Stopping::new(&token);
        let waiting = tokio::spawn(async move {
            std::future::poll_fn(|cx| stopping.poll(cx)).await;
        });
        tokio::task::yield_now().await;
        token.cancel();
        tokio::time::timeout(std::time::Duration::from_secs(5), waiting)
            .await
            .expect("the task stopped")
            .expect("it did not panic");
    }
}
