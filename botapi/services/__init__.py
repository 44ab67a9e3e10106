"""What can happen to a bot and because of it: everything on the bot side that writes.

* ``bots`` — register, change, rotate credentials, ping, suspend, reactivate,
  delete; a bot's health after a game;
* ``pull`` — pull mode's turns and moves (a move goes on to ``referee.submit``);
* ``notify`` — telling push bots that a game started or finished;
* ``alerts`` — telling an owner, once, of a fault or a suspension;
* ``local_games`` — ``manage.py play``: local games through the service's referee.

The reads (capacity, seating, versions, the owner's log and chart) are in
``botapi.selectors``.
"""
