//! A fixed set of worker threads behind a bounded queue: a job beyond the queue is
//! handed back at once (the server answers 503) instead of waiting or spawning threads.

use std::sync::Arc;

use crossbeam_channel::{Sender, TrySendError};

/// Worker threads that run a handler on each job.
pub struct Pool<T> {
    jobs: Sender<T>,
}

impl<T: Send + 'static> Pool<T> {
    /// `workers` threads (at least one) running `handle`, and room for `queue` waiting
    /// jobs (0: a job is taken only when a worker is free).
    pub fn new(
        workers: usize,
        queue: usize,
        handle: impl Fn(T) + Send + Sync + 'static,
    ) -> Pool<T> {
        let (jobs, inbox) = crossbeam_channel::bounded::<T>(queue);
        let handle = Arc::new(handle);
        for _ in 0..workers.max(1) {
            let inbox = inbox.clone();
            let handle = Arc::clone(&handle);
            std::thread::spawn(move || {
                for job in inbox {
                    handle(job);
                }
            });
        }
        Pool { jobs }
    }

    /// Queues `job`; gives it back when every worker is busy and the queue is full.
    pub fn try_run(&self, job: T) -> Result<(), T> {
        self.jobs.try_send(job).map_err(|e| match e {
            TrySendError::Full(job) | TrySendError::Disconnected(job) => job,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Barrier;

    #[test]
    fn a_full_pool_hands_the_job_back() {
        let release = Arc::new(Barrier::new(3));
        let started = Arc::new(Barrier::new(3));
        let (done_tx, done) = crossbeam_channel::unbounded();
        let pool = {
            let (release, started) = (Arc::clone(&release), Arc::clone(&started));
            Pool::new(2, 2, move |n: u32| {
                if n < 2 {
                    started.wait();
                    release.wait();
                }
                let _ = done_tx.send(n);
            })
        };
        pool.try_run(0).unwrap();
        pool.try_run(1).unwrap();
        started.wait(); // both workers are busy, the queue is empty
        pool.try_run(2).unwrap(); // these two wait in the queue
        pool.try_run(3).unwrap();
        assert_eq!(pool.try_run(4), Err(4), "beyond the queue: handed back");
        release.wait();
        let mut finished: Vec<u32> = (0..4).map(|_| done.recv().unwrap()).collect();
        finished.sort_unstable();
        assert_eq!(finished, [0, 1, 2, 3]);
        pool.try_run(5).unwrap();
        assert_eq!(done.recv().unwrap(), 5);
    }
}
