"""Plugin labels: the plugin SPI, the labels and their merge rule, check_cluster_operation.

Standard library only, with an in-memory store; the service keeps labels in its database
(:mod:`onespec.validators_runtime.service.db.label_store`).
"""
