"""What wraps every request.

Body limits and timeouts, static files, the ASGI handler, login and API throttles.
"""
