"""Pure Python functions behind cdcflow's Spark UDFs.

Nothing in this package imports Spark except :mod:`udfs.spark_registration`,
the one place that registers these functions on a SparkSession.
"""

from udfs.change_mask import change_mask_fits, changed_columns, set_bits

__all__ = [
    "change_mask_fits",
    "changed_columns",
    "set_bits",
]
