-- Wake-ups for the workers (app/queue/wake-ups.server.ts): a job that becomes
-- pending or failed, whoever wrote it (an enqueue, a settle, a retry from the
-- Activity page), notifies channel "cod_job" with its runAt in epoch
-- milliseconds. PostgreSQL delivers a notification only when its transaction
-- commits, and folds identical ones within a transaction.
CREATE FUNCTION "cod_job_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cod_job', floor(extract(epoch FROM NEW."runAt") * 1000)::bigint::text);
  RETURN NULL;
END;
$$;

CREATE TRIGGER "Job_wake_up"
  AFTER INSERT OR UPDATE OF "state", "runAt" ON "Job"
  FOR EACH ROW WHEN (NEW."state" IN ('pending', 'failed'))
  EXECUTE FUNCTION "cod_job_notify"();
