"""What every API endpoint shares.

The error shape, bounded fields, the JSON parser, pagination, the schema.
"""
