"""Training and export of the shipped models from their recipes (`mcr train` runs these modules): the detector
(`train`, `export`, on a lent GPU `device`), the face readers (`faces`), the box refiner (`boxes`), what they share
(`runs`, `recipes`), and the real photos' preparation (`real_data`, `riichi`)."""
