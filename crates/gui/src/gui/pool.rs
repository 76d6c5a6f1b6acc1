//! A fixed set of worker threads behind a bounded queue: a job beyond the queue is
//! handed back at once (the server answers 503) instead of waiting or spawning threads.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crossbeam_channel::Sender;

/// Worker threads that run a handler on each job.
pub struct Pool<T> {
    jobs: Sender<T>,
    /// Jobs accepted and not yet finished (waiting or running).
    in_flight: Arc<AtomicUsize>,
    /// Most jobs in flight: the workers plus the queue.
    limit: usize,
}

impl<T: Send + 'static> Pool<T> {
    /// `workers` threads (at least one) running `handle`, and room for `queue` waiting
    /// jobs (0: a job is taken only when a worker is free).
    pub fn new(
        workers: usize,
        queue: usize,
        handle: impl Fn(T) + Send + Sync + 'static,
    ) -> Pool<T> {
        let workers = workers.max(1);
        let limit = workers + queue;
        // Never full: at most `limit` jobs are in flight, so at most that many wait here.
        let (jobs, inbox) = crossbeam_channel::bounded::<T>(limit);
        let handle = Arc::new(handle);
        let in_flight = Arc::new(AtomicUsize::new(0));
        for _ in 0..workers {
            let inbox = inbox.clone();
            let handle = Arc::clone(&handle);
            let in_flight = Arc::clone(&in_flight);
            std::thread::spawn(move || {
                for job in inbox {
                    handle(job);
                    in_flight.fetch_sub(1, Ordering::AcqRel);
                }
            });
        }
        Pool {
            jobs,
            in_flight,
            limit,
        }
    }

    /// Queues `job`; gives it back when every worker is busy and the queue is full.
    /// A worker counts as busy from the moment its job is accepted until its handler
    /// returns, so whether a job is taken never depends on thread scheduling (a
    /// rendezvous channel would refuse a job while a free worker is between two jobs).
    pub fn try_run(&self, job: T) -> Result<(), T> {
        if self.in_flight.fetch_add(1, Ordering::AcqRel) >= self.limit {
            self.in_flight.fetch_sub(1, Ordering::AcqRel);
            return Err(job);
        }
        self.jobs.try_send(job).map_err(|e| {
            self.in_flight.fetch_sub(1, Ordering::AcqRel);
            e.into_inner()
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
