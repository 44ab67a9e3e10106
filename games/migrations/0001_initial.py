"""The game models, moved here from tournaments: state only, their tables stay as they are."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('tournaments', '0013_game_step_failures_status_reason'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='Game',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('engine', models.CharField(max_length=30)),
                        ('engine_version', models.CharField(max_length=20)),
                        ('num_players', models.PositiveSmallIntegerField()),
                        ('options', models.JSONField(blank=True, default=dict)),
                        ('seed', models.CharField(help_text='Secret until the game is finished.', max_length=100)),
                        ('seed_commitment', models.CharField(help_text='sha256(seed), public.', max_length=64)),
                        ('status', models.CharField(choices=[('scheduled', 'scheduled'), ('running', 'running'), ('finished', 'finished'), ('aborted', 'aborted')], default='scheduled', max_length=10)),
                        ('rated', models.BooleanField(default=True)),
                        ('unrated_reason', models.CharField(blank=True, choices=[('same_owner', 'one owner holds several seats'), ('challenge', 'a challenge'), ('chosen_seed', 'chosen seed'), ('creator', 'its creator chose so')], help_text='Why the game is unrated; blank when it is rated (and for games recorded before reasons were kept).', max_length=20)),
                        ('purpose', models.CharField(choices=[('casual', 'made by a user, the demo or a local test'), ('event', "paired by an organiser's event (a tournament, the arena)")], default='casual', max_length=10)),
                        ('listed', models.BooleanField(default=True, help_text="Shown in public lists (home page, the API's game list, leaderboard pages). Off for local test games (manage.py play); their own page stays reachable by id.")),
                        ('round_number', models.PositiveIntegerField(blank=True, null=True)),
                        ('move_time_ms', models.PositiveIntegerField(default=5000)),
                        ('time_bank_ms', models.PositiveIntegerField(default=0)),
                        ('next_ply', models.PositiveIntegerField(default=0, help_text='Number of moves logged.')),
                        ('status_reason', models.TextField(blank=True, db_default='', help_text='Why the game was aborted, for its page, the admin and organisers.')),
                        ('failing_ply', models.PositiveIntegerField(blank=True, help_text='The ply on which the referee last failed (an error).', null=True)),
                        ('failures', models.PositiveSmallIntegerField(db_default=0, default=0, help_text="The referee's failures in a row on failing_ply; at the limit the ply is given up (a fault for the seat that answered, else the game is aborted).")),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('started_at', models.DateTimeField(blank=True, null=True)),
                        ('last_progress_at', models.DateTimeField(blank=True, null=True)),
                        ('finished_at', models.DateTimeField(blank=True, db_index=True, null=True)),
                        ('created_by', models.ForeignKey(blank=True, help_text="The user who asked for the game (challengers' share of an open bot); empty for games the service made (demo, events, local tests).", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='created_games', to=settings.AUTH_USER_MODEL)),
                        ('league', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='games', to='tournaments.league')),
                        ('table', models.ForeignKey(blank=True, help_text='The tournament table this game plays (several games for a duplicate set).', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='games', to='tournaments.table')),
                        ('tournament', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='games', to='tournaments.tournament')),
                    ],
                    options={
                        'db_table': 'tournaments_game',
                        'ordering': ['-created_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='Competitor',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('bot', 'bot'), ('person', 'person')], max_length=10)),
                        ('name', models.CharField(max_length=100)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('user', models.ForeignKey(blank=True, help_text='The person playing, or the owner of the bot.', null=True, on_delete=django.db.models.deletion.CASCADE, related_name='competitors', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'tournaments_competitor',
                        'ordering': ['name', 'id'],
                    },
                ),
                migrations.CreateModel(
                    name='GameRecord',
                    fields=[
                        ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='record', serialize=False, to='games.game')),
                        ('rules_version', models.CharField(help_text='The engine version the record was computed with.', max_length=20)),
                        ('replayable', models.PositiveIntegerField(help_text='Moves that replay under those rules (all of them unless the log is older).')),
                        ('plies', models.TextField(help_text="Compact JSON, as text: PostgreSQL's jsonb would reorder the events' keys, and the engines' sentences follow their order.")),
                        ('built_at', models.DateTimeField(auto_now=True)),
                    ],
                    options={
                        'db_table': 'tournaments_gamerecord',
                    },
                ),
                migrations.CreateModel(
                    name='GameCheckpoint',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('ply', models.PositiveIntegerField()),
                        ('state', models.TextField(help_text='``State.to_json()`` as compact JSON text (key order kept).')),
                        ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='checkpoints', to='games.game')),
                    ],
                    options={
                        'db_table': 'tournaments_gamecheckpoint',
                        'ordering': ['game', 'ply'],
                    },
                ),
                migrations.CreateModel(
                    name='Move',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('ply', models.PositiveIntegerField()),
                        ('seat', models.SmallIntegerField(help_text='-1 is chance.')),
                        ('action', models.JSONField()),
                        ('source', models.CharField(choices=[('bot', 'bot'), ('person', 'person'), ('chance', 'chance'), ('default', 'default after a fault'), ('house', 'house bot for a substituted seat')], max_length=10)),
                        ('latency_ms', models.PositiveIntegerField(blank=True, null=True)),
                        ('fault_kind', models.CharField(blank=True, max_length=30)),
                        ('fault_detail', models.TextField(blank=True)),
                        ('request_excerpt', models.TextField(blank=True, help_text="For the bot's owner only.")),
                        ('reply_excerpt', models.TextField(blank=True, help_text="For the bot's owner only.")),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='moves', to='games.game')),
                    ],
                    options={
                        'db_table': 'tournaments_move',
                        'ordering': ['game', 'ply'],
                    },
                ),
                migrations.CreateModel(
                    name='Outcome',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('scores', models.JSONField()),
                        ('ranks', models.JSONField(help_text='1 = best; ties share a rank; forfeits rank last.')),
                        ('recorded_at', models.DateTimeField(auto_now_add=True)),
                        ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='outcome', to='games.game')),
                    ],
                    options={
                        'db_table': 'tournaments_outcome',
                    },
                ),
                migrations.CreateModel(
                    name='Seat',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('position', models.PositiveSmallIntegerField()),
                        ('forfeited', models.BooleanField(default=False)),
                        ('withdrawn', models.BooleanField(default=False, help_text='Its entrant withdrew or was disqualified from the event during the game: the seat forfeited, and its result changes no rating (the other seats are rated among themselves).')),
                        ('substituted', models.BooleanField(default=False, help_text='A house bot plays the seat for the rest of the game: its person timed out too often or resigned. Always set together with forfeited (the person ranks last), so the other players still play a real game.')),
                        ('fault_count', models.PositiveIntegerField(default=0)),
                        ('events_sent', models.PositiveIntegerField(default=0, help_text="Public events already sent to this seat's bot.")),
                        ('bank_left_ms', models.PositiveIntegerField(default=0, help_text="Unused time bank: starts at the game's time_bank_ms; time a decision takes beyond move_time_ms is taken from it.")),
                        ('competitor', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='seats', to='games.competitor')),
                        ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='games.game')),
                    ],
                    options={
                        'db_table': 'tournaments_seat',
                        'ordering': ['game', 'position'],
                    },
                ),
                migrations.AddIndex(
                    model_name='game',
                    index=models.Index(fields=['status', 'last_progress_at'], name='tournaments_status_70c4e6_idx'),
                ),
                migrations.AddIndex(
                    model_name='game',
                    index=models.Index(condition=models.Q(('listed', True)), fields=['-created_at', '-id'], name='game_listed_newest'),
                ),
                migrations.AddIndex(
                    model_name='game',
                    index=models.Index(condition=models.Q(('listed', True)), fields=['engine', '-created_at', '-id'], name='game_listed_engine_newest'),
                ),
                migrations.AddIndex(
                    model_name='game',
                    index=models.Index(condition=models.Q(('listed', True)), fields=['status', '-created_at', '-id'], name='game_listed_status_newest'),
                ),
                migrations.AddConstraint(
                    model_name='gamecheckpoint',
                    constraint=models.UniqueConstraint(fields=('game', 'ply'), name='unique_checkpoint_ply'),
                ),
                migrations.AddIndex(
                    model_name='move',
                    index=models.Index(condition=models.Q(('fault_kind', ''), _negated=True), fields=['game', 'seat', 'ply'], name='move_faults_by_seat'),
                ),
                migrations.AddConstraint(
                    model_name='move',
                    constraint=models.UniqueConstraint(fields=('game', 'ply'), name='unique_move_ply'),
                ),
                migrations.AddIndex(
                    model_name='seat',
                    index=models.Index(fields=['competitor', 'game'], name='seat_competitor_game'),
                ),
                migrations.AddConstraint(
                    model_name='seat',
                    constraint=models.UniqueConstraint(fields=('game', 'position'), name='unique_seat_position'),
                ),
            ],
        ),
    ]
