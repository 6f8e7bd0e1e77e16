//! The declaration shared by the algorithms that are the best-first engine with a constructor of
//! their own (A*, Dijkstra, weighted A*, greedy).

/// Declares an algorithm that is the best-first engine with its own constructor: the struct, and
/// `Search` by delegation, so each algorithm file holds only what makes it different.
macro_rules! best_first_algorithm {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Clone, Debug)]
        pub struct $name(pub $crate::search::BestFirst);

        impl<S: $crate::space::Space> $crate::search::Search<S> for $name {
            fn reset(&mut self, space: &S, query: $crate::search::Query) {
                self.0.reset(space, query)
            }
            #[inline]
            fn step<T: $crate::trace::Tracer>(&mut self, space: &S, tracer: &mut T) -> $crate::search::Status {
                self.0.step(space, tracer)
            }
            fn run<T: $crate::trace::Tracer>(&mut self, space: &S, tracer: &mut T) -> $crate::search::Status {
                self.0.run(space, tracer)
            }
        }

        impl $crate::search::SearchState for $name {
            fn status(&self) -> $crate::search::Status {
                self.0.status()
            }
            fn path(&self) -> Option<&[$crate::space::NodeId]> {
                self.0.path()
            }
            fn cost(&self) -> Option<f64> {
                self.0.cost()
            }
            fn stats(&self) -> $crate::search::Stats {
                self.0.stats()
            }
            fn open_len(&self) -> usize {
                self.0.open_len()
            }
            fn g(&self, n: $crate::space::NodeId) -> Option<f64> {
                self.0.g(n)
            }
        }
    };
}
pub(crate) use best_first_algorithm;
