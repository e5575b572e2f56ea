//! The iterator types of the crate forward to an iterator in their `inner` field: these
//! macros write the forwarding impls.

/// The `Iterator`, `ExactSizeIterator` and `FusedIterator` impls of `$iterator`, whose
/// `inner` iterator gives `$item`.
macro_rules! forward_iterator {
    ($iterator: ident<$lifetime: lifetime>, $item: ty) => {
        impl<$lifetime> Iterator for $iterator<$lifetime> {
            type Item = $item;

            #[inline]
            fn next(&mut self) -> Option<$item> {
                self.inner.next()
            }

            fn size_hint(&self) -> (usize, Option<usize>) {
                self.inner.size_hint()
            }
        }

        impl ExactSizeIterator for $iterator<'_> {}

        impl std::iter::FusedIterator for $iterator<'_> {}
    };
}

/// The rayon `ParallelIterator` and `IndexedParallelIterator` impls of `$iterator`, whose
/// `inner` parallel iterator gives `$item`.
#[cfg(feature = "rayon")]
macro_rules! forward_parallel_iterator {
    ($iterator: ident<$lifetime: lifetime>, $item: ty) => {
        impl<$lifetime> rayon::iter::ParallelIterator for $iterator<$lifetime> {
            type Item = $item;

            #[inline]
            fn drive_unindexed<C>(self, consumer: C) -> C::Result
            where
                C: rayon::iter::plumbing::UnindexedConsumer<Self::Item>,
            {
                self.inner.drive_unindexed(consumer)
            }
        }

        impl rayon::iter::IndexedParallelIterator for $iterator<'_> {
            #[inline]
            fn len(&self) -> usize {
                self.inner.len()
            }

            #[inline]
            fn drive<C: rayon::iter::plumbing::Consumer<Self::Item>>(self, consumer: C) -> C::Result {
                self.inner.drive(consumer)
            }

            #[inline]
            fn with_producer<CB: rayon::iter::plumbing::ProducerCallback<Self::Item>>(
                self, callback: CB,
            ) -> CB::Output {
                self.inner.with_producer(callback)
            }
        }
    };
}
