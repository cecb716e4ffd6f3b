"""cdcflow launcher: embedded runs and a Spark Thrift server, UDFs registered."""
