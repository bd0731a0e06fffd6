-- Wake-ups, one per job (app/queue/wake-ups.server.ts): the payload is the
-- job's runAt in epoch milliseconds and its id ("<ms>:<id>"). PostgreSQL folds
-- identical notifications within a transaction, so with the runAt alone a
-- transaction that made many jobs due at one time sent one: a worker could not
-- tell how many lanes to wake, and woke all of them, each but the first
-- claiming for nothing. With the id each job is told, and one lane is woken
-- for each.
CREATE OR REPLACE FUNCTION "cod_job_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cod_job', floor(extract(epoch FROM NEW."runAt") * 1000)::bigint::text || ':' || NEW."id");
  RETURN NULL;
END;
$$;
