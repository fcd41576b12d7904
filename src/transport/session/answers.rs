//! A session's replies on their way, in the order of their commands.
//!
//! Every command a session sends on returns a future of its reply (its commit awaited); a
//! session reads ahead of those replies and must write them in order. `FuturesOrdered` did
//! this with a task of its own for each future (an allocation, atomic queues, a waker each);
//! here the futures wait in a queue, each is polled whenever the session is woken until it is
//! done, and the replies are handed out from the front. Every future is polled, not only the
//! first: one that starts its work when first polled (an `ACK` handing its delete to the
//! journal) starts it at once, so it shares the commit of the commands read with it.
//!
//! ```
//! use ccrelay::relay::{Reply, Status};
//! use ccrelay::transport::session::answers::Answers;
//!
//! let mut answers = Answers::new();
//! answers.push_ready(Reply::new(Status::Done, "first"));
//! answers.push_back(Box::pin(async { Reply::new(Status::Done, "second") }));
//! let replies = futures::executor::block_on(async {
//!     let mut texts = Vec::new();
//!     while let Some(reply) = answers.next().await {
//!         texts.push(reply.text);
//!     }
//!     texts
//! });
//! assert_eq!(replies, ["first", "second"]);
//! ```

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::relay::Reply;

/// A reply on its way: the commit of a command sent on.
pub type Answer<'a> = Pin<Box<dyn Future<Output = Reply> + Send + 'a>>;

enum Slot<'a> {
    Waiting(Answer<'a>),
    Ready(Reply),
}

/// Replies in the order their commands were read.
#[derive(Default)]
pub struct Answers<'a> {
    slots: VecDeque<Slot<'a>>,
}

impl<'a> Answers<'a> {
    pub fn new() -> Answers<'a> {
        Answers {
            slots: VecDeque::new(),
        }
    }

    /// Queues the reply a future will give, after every reply queued before it.
    pub fn push_back(&mut self, answer: Answer<'a>) {
        self.slots.push_back(Slot::Waiting(answer));
    }

    /// Queues a reply known now, after every reply queued before it.
    pub fn push_ready(&mut self, reply: Reply) {
        self.slots.push_back(Slot::Ready(reply));
    }

    /// Replies queued and not yet handed out.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The first reply, once it is there; `Ready(None)` when none is queued. Polls every
    /// future still waiting, so each registers `cx` and goes on with its work.
    pub fn poll_next(&mut self, cx: &mut Context<'_>) -> Poll<Option<Reply>> {
        for slot in &mut self.slots {
            if let Slot::Waiting(answer) = slot
                && let Poll::Ready(reply) = answer.as_mut().poll(cx)
            {
                *slot = Slot::Ready(reply);
            }
        }
        match self.slots.pop_front() {
            None => Poll::Ready(None),
            Some(Slot::Ready(reply)) => Poll::Ready(Some(reply)),
            Some(waiting) => {
                self.slots.push_front(waiting);
                Poll::Pending
            }
        }
    }

    /// The first reply, waited for; `None` when none is queued.
    pub async fn next(&mut self) -> Option<Reply> {
        std::future::poll_fn(|cx| self.poll_next(cx)).await
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    use tokio::sync::oneshot;

    use super::*;
    use crate::relay::Status;

    fn done(text: &str) -> Reply {
        Reply::new(Status::Done, text)
    }

    #[tokio::test]
    async fn replies_come_in_the_order_of_their_commands_whatever_order_they_finish_in() {
        let (first_tx, first_rx) = oneshot::channel::<Reply>();
        let (second_tx, second_rx) = oneshot::channel::<Reply>();
        let mut answers = Answers::new();
        answers.push_back(Box::pin(async move { first_rx.await.unwrap() }));
        answers.push_back(Box::pin(async move { second_rx.await.unwrap() }));
        answers.push_ready(done("third"));
        second_tx.send(done("second")).unwrap();
        let waker = futures::task::noop_waker();
        let mut cx = Context::from_waker(&waker);
        assert!(
            answers.poll_next(&mut cx).is_pending(),
            "the first is not done"
        );
        first_tx.send(done("first")).unwrap();
        let mut texts = Vec::new();
        while let Some(reply) = answers.next().await {
            texts.push(reply.text);
        }
        assert_eq!(texts, ["first", "second", "third"]);
        assert!(answers.is_empty());
    }

    #[tokio::test]
    async fn a_reply_behind_another_starts_its_work_when_first_polled() {
        let (first_tx, first_rx) = oneshot::channel::<Reply>();
        let started = Arc::new(AtomicBool::new(false));
        let mut answers = Answers::new();
        answers.push_back(Box::pin(async move { first_rx.await.unwrap() }));
        let seen = started.clone();
        answers.push_back(Box::pin(async move {
            seen.store(true, Ordering::SeqCst);
            done("acknowledged")
        }));
        let waker = futures::task::noop_waker();
        let mut cx = Context::from_waker(&waker);
        assert!(answers.poll_next(&mut cx).is_pending());
        assert!(
            started.load(Ordering::SeqCst),
            "the second ran while the first waited"
        );
        assert_eq!(answers.len(), 2);
        first_tx.send(done("recorded")).unwrap();
        assert_eq!(
            answers.next().await.map(|r| r.text),
            Some("recorded".into())
        );
        assert_eq!(
            answers.next().await.map(|r| r.text),
            Some("acknowledged".into())
        );
        assert_eq!(answers.next().await, None);
    }
}
