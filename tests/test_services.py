"""The test servers themselves (tests/services.py): each test gets its own empty database and an empty Redis."""


def test_each_test_gets_a_fresh_postgresql_database(postgresql_url):
    import sqlalchemy

    engine = sqlalchemy.create_engine(postgresql_url)
    with engine.begin() as connection:
        assert connection.execute(sqlalchemy.text("select count(*) from pg_tables where schemaname='public'")).scalar() == 0
        connection.execute(sqlalchemy.text("create table grade (student text primary key, score float)"))
        connection.execute(sqlalchemy.text("insert into grade values ('alice', 5)"))
    engine.dispose()


def test_the_next_test_sees_none_of_it(postgresql_url):
    test_each_test_gets_a_fresh_postgresql_database(postgresql_url)


def test_redis_is_emptied_for_each_test(redis_url):
    import redis

    client = redis.Redis.from_url(redis_url)
    assert client.dbsize() == 0
    client.set("left-over", 1)
    client.close()


def test_the_next_redis_test_starts_empty(redis_url):
    test_redis_is_emptied_for_each_test(redis_url)
