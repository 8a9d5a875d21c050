"""Reference runs for sqlearn's ml package.

Reads JSON specs (one file path per stdin line) written by refdata.Reference: the raw
columns, the training and test row indices chosen on the Go side, the
algorithm and its hyperparameters. Encodes the features the way the
sqlearn model documents it, fits the scikit-learn estimator (or, for ALS,
the numpy reference below) `repeats` times, and prints one JSON line per spec
with fit times, test metrics and, for linear models, the coefficients. It
also times the estimator fitted from the raw columns through
scikit-learn's own transformers (imputers, scaler, encoders), which is the
work a sqlearn model, encoders included, stands for.
"""
import json
import sys
import time

import numpy as np
from sklearn import cluster, ensemble, impute, linear_model, metrics, naive_bayes, pipeline, preprocessing, tree


def column_values(col):
    if col["kind"] == "numeric":
        return np.array([np.nan if v is None else v for v in col["values"]], dtype=float)
    return np.array(["" if v is None else v for v in col["values"]], dtype=object), np.array(
        [v is None for v in col["values"]])


def encode(spec, train, test, categorical, standardize, drop_first):
    """Returns train and test design matrices and, per encoded column, whether
    it came from a categorical feature."""
    tr_parts, te_parts, is_cat = [], [], []
    for col in spec["columns"]:
        if col["kind"] == "numeric":
            v = column_values(col)
            fill = np.nanmean(v[train])
            tr = np.where(np.isnan(v[train]), fill, v[train])
            te = np.where(np.isnan(v[test]), fill, v[test])
            if standardize:
                scaler = preprocessing.StandardScaler().fit(tr[:, None])
                tr = scaler.transform(tr[:, None])[:, 0]
                te = scaler.transform(te[:, None])[:, 0]
            tr_parts.append(tr[:, None])
            te_parts.append(te[:, None])
            is_cat.append(False)
            continue
        v, null = column_values(col)
        seen = v[train][~null[train]]
        levels, counts = np.unique(seen, return_counts=True)
        levels = list(levels)
        fill = levels[int(np.argmax(counts))]  # first maximum: smallest level wins ties
        index = {l: i for i, l in enumerate(levels)}

        def codes(rows):
            out = []
            for r in rows:
                s = fill if null[r] else v[r]
                out.append(index.get(s, -1))
            return np.array(out)

        ctr, cte = codes(train), codes(test)
        if categorical == "ordinal":
            ctr = np.where(ctr < 0, index[fill], ctr)
            cte = np.where(cte < 0, index[fill], cte)
            tr_parts.append(ctr[:, None].astype(float))
            te_parts.append(cte[:, None].astype(float))
            is_cat.append(True)
            continue
        first = 1 if drop_first else 0
        for lvl in range(first, len(levels)):
            tr_parts.append((ctr == lvl).astype(float)[:, None])
            te_parts.append((cte == lvl).astype(float)[:, None])
            is_cat.append(False)
    return np.hstack(tr_parts), np.hstack(te_parts), np.array(is_cat)


def raw_columns(spec, rows):
    """The numeric columns of rows as one float matrix (NaN for NULL) and
    the categorical ones as one object matrix (NaN for NULL), either None
    when the table has no such column: what a scikit-learn user holds
    before any encoding."""
    num, cat = [], []
    for col in spec["columns"]:
        if col["kind"] == "numeric":
            num.append(column_values(col)[rows])
            continue
        v, null = column_values(col)
        v = v[rows].copy()
        v[null[rows]] = np.nan
        cat.append(v)
    return (np.column_stack(num) if num else None), (np.column_stack(cat) if cat else None)


def sklearn_encoder(categorical, standardize, drop_first):
    """scikit-learn's own transformers for the encoding that encode() spells
    out: mean imputation (and standardisation) of numeric columns, the most
    frequent level for missing categories, then one-hot or ordinal codes.
    Returns a function from the raw training columns to the design matrix
    and its per-column categorical flags."""

    def fit_transform(xnum, xcat):
        parts, is_cat = [], []
        if xnum is not None:
            steps = [("impute", impute.SimpleImputer(strategy="mean"))]
            if standardize:
                steps.append(("scale", preprocessing.StandardScaler()))
            parts.append(pipeline.Pipeline(steps).fit_transform(xnum))
            is_cat += [False] * parts[-1].shape[1]
        if xcat is not None:
            if categorical == "ordinal":
                code = preprocessing.OrdinalEncoder()
            else:
                code = preprocessing.OneHotEncoder(drop="first" if drop_first else None, sparse_output=False)
            steps = [("impute", impute.SimpleImputer(strategy="most_frequent")), ("code", code)]
            parts.append(pipeline.Pipeline(steps).fit_transform(xcat))
            is_cat += [categorical == "ordinal"] * parts[-1].shape[1]
        return np.hstack(parts), np.array(is_cat)

    return fit_transform


def check_same_design(spec, train, xtr, categorical, drop_first, x_pipe):
    """Raises unless the transformers' design matrix is encode()'s with its
    columns regrouped (numeric first), so that the two timings are of the
    same model."""
    num_idx, cat_idx, at = [], [], 0
    for col in spec["columns"]:
        if col["kind"] == "numeric":
            num_idx.append(at)
            at += 1
            continue
        v, null = column_values(col)
        width = 1
        if categorical != "ordinal":
            width = len(np.unique(v[train][~null[train]])) - (1 if drop_first else 0)
        cat_idx.extend(range(at, at + width))
        at += width
    want = xtr[:, num_idx + cat_idx]
    if want.shape != x_pipe.shape or not np.allclose(want, x_pipe, rtol=1e-12, atol=1e-12):
        raise ValueError("scikit-learn's transformers and encode() disagree on the design matrix")


def target(spec, rows):
    t = spec["target"]
    return np.array([t["values"][r] for r in rows])


def class_codes(spec, train, test):
    t = spec["target"]
    if t["kind"] == "numeric":
        keys = [repr(float(v)) for v in t["values"]]
        levels = sorted(set(keys[r] for r in train), key=float)
    else:
        keys = t["values"]
        levels = sorted(set(keys[r] for r in train))
    index = {l: i for i, l in enumerate(levels)}
    return (np.array([index[keys[r]] for r in train]),
            np.array([index.get(keys[r], -1) for r in test]), len(levels))


def classification_metrics(y, proba, k):
    pred = proba.argmax(axis=1)
    avg = "binary" if k == 2 else "macro"
    out = {
        "accuracy": metrics.accuracy_score(y, pred),
        "f1": metrics.f1_score(y, pred, average=avg, zero_division=0),
        "precision": metrics.precision_score(y, pred, average=avg, zero_division=0),
        "recall": metrics.recall_score(y, pred, average=avg, zero_division=0),
        "log_loss": metrics.log_loss(y, np.clip(proba, 1e-15, 1 - 1e-15), labels=list(range(k))),
    }
    if k == 2:
        out["roc_auc"] = metrics.roc_auc_score(y, proba[:, 1])
    else:
        out["roc_auc"] = metrics.roc_auc_score(y, proba, multi_class="ovr", labels=list(range(k)))
    return out


def regression_metrics(y, pred):
    return {
        "r2": metrics.r2_score(y, pred),
        "mean_squared_error": metrics.mean_squared_error(y, pred),
        "mean_absolute_error": metrics.mean_absolute_error(y, pred),
    }


class MixedNB:
    """Gaussian NB on numeric columns and categorical NB on ordinal-coded
    categorical ones, combined through their joint log-likelihoods."""

    def __init__(self, is_cat):
        self.is_cat = is_cat

    def fit(self, x, y):
        self.k = int(y.max()) + 1
        self.g = naive_bayes.GaussianNB().fit(x[:, ~self.is_cat], y) if (~self.is_cat).any() else None
        self.c = None
        if self.is_cat.any():
            xc = x[:, self.is_cat].astype(int)
            self.c = naive_bayes.CategoricalNB(alpha=1.0, min_categories=xc.max(axis=0) + 1).fit(xc, y)
        return self

    def predict_proba(self, x):
        jll = np.zeros((x.shape[0], self.k))
        prior = None
        if self.g is not None:
            jll += self.g.predict_joint_log_proba(x[:, ~self.is_cat])
            prior = np.log(self.g.class_prior_)
        if self.c is not None:
            jll += self.c.predict_joint_log_proba(x[:, self.is_cat].astype(int))
            if prior is not None:
                jll -= prior
        jll -= jll.max(axis=1, keepdims=True)
        p = np.exp(jll)
        return p / p.sum(axis=1, keepdims=True)


def als(u_tr, i_tr, r_tr, rank, lam, iters, seed):
    """Alternating least squares with weighted-lambda regularisation on
    ratings centred by their mean: each user's factor solves
    (V_u^T V_u + lam * n_u * I) x = V_u^T (r_u - mean), then items likewise.
    Item factors start as N(0, 1) / sqrt(rank)."""
    nu, ni = u_tr.max() + 1, i_tr.max() + 1
    mu = r_tr.mean()
    rc = r_tr - mu
    rng = np.random.default_rng(seed)
    V = rng.standard_normal((ni, rank)) / np.sqrt(rank)
    U = np.zeros((nu, rank))

    def solve(rows, cols, n_rows, F):
        # Sum each row's outer products with a sort and reduceat, which is
        # far faster than np.add.at on ~10^5 ratings.
        order = np.argsort(rows, kind="stable")
        rs, Fc, rcs = rows[order], F[cols[order]], rc[order]
        starts = np.flatnonzero(np.r_[True, rs[1:] != rs[:-1]])
        present = rs[starts]
        A = np.zeros((n_rows, rank, rank))
        b = np.zeros((n_rows, rank))
        A[present] = np.add.reduceat(Fc[:, :, None] * Fc[:, None, :], starts, axis=0)
        b[present] = np.add.reduceat(Fc * rcs[:, None], starts, axis=0)
        cnt = np.bincount(rows, minlength=n_rows).astype(float)
        A += lam * np.maximum(cnt, 1)[:, None, None] * np.eye(rank)[None]
        return np.linalg.solve(A, b[:, :, None])[:, :, 0]

    for _ in range(iters):
        U = solve(u_tr, i_tr, nu, V)
        V = solve(i_tr, u_tr, ni, U)
    return mu, U, V


def run(spec):
    alg, task, prm = spec["algorithm"], spec["task"], spec.get("params") or {}
    train, test = np.array(spec["train"], dtype=int), np.array(spec["test"], dtype=int)
    seed = int(prm.get("seed", 0))
    out = {"fit_seconds": [], "pipeline_seconds": []}
    repeats = int(spec.get("repeats", 1))

    def timed(fit, key="fit_seconds"):
        model = None
        if key == "pipeline_seconds" and not spec.get("with_encoders"):
            return model
        for _ in range(repeats):
            t0 = time.perf_counter()
            model = fit()
            out[key].append(time.perf_counter() - t0)
        return model

    if alg == "ALS":
        ucol, icol = spec["columns"][0]["values"], spec["columns"][1]["values"]
        ukeys = {v: i for i, v in enumerate(sorted(set(ucol[r] for r in train)))}
        ikeys = {v: i for i, v in enumerate(sorted(set(icol[r] for r in train)))}
        u = np.array([ukeys[ucol[r]] for r in train])
        i = np.array([ikeys[icol[r]] for r in train])
        r = target(spec, train).astype(float)
        mu, U, V = timed(lambda: als(u, i, r, int(prm["rank"]), float(prm["lambda"]), int(prm["max_iter"]), seed))

        def mapped_als():
            # The ids as the table holds them, mapped to dense indices as
            # part of the fit.
            _, uu = np.unique(np.array([ucol[x] for x in train]), return_inverse=True)
            _, ii = np.unique(np.array([icol[x] for x in train]), return_inverse=True)
            return als(uu, ii, r, int(prm["rank"]), float(prm["lambda"]), int(prm["max_iter"]), seed)

        timed(mapped_als, "pipeline_seconds")
        pred = []
        for row in test:
            a, b = ukeys.get(ucol[row]), ikeys.get(icol[row])
            pred.append(mu + (U[a] @ V[b] if a is not None and b is not None else 0.0))
        yt = target(spec, test).astype(float)
        out["metrics"] = {"rmse": float(np.sqrt(np.mean((yt - np.array(pred)) ** 2)))}
        return out

    categorical = "ordinal" if alg in ("DecisionTree", "GradientBoosting", "NaiveBayes") else "onehot"
    standardize = alg in ("LogisticRegression", "KMeans")
    xtr, xte, is_cat = encode(spec, train, test, categorical, standardize, alg == "LinearRegression")
    # The same estimator fitted again from the raw training columns through
    # scikit-learn's transformers, timed with them: the work a trained
    # sqlearn model (encoders included) stands for.
    raw_num, raw_cat = raw_columns(spec, train)
    prep = sklearn_encoder(categorical, standardize, alg == "LinearRegression")
    check_same_design(spec, train, xtr, categorical, alg == "LinearRegression", prep(raw_num, raw_cat)[0])

    def timed_pipeline(fit):
        def run_once():
            x, flags = prep(raw_num, raw_cat)
            return fit(x, flags)
        timed(run_once, "pipeline_seconds")

    if alg == "KMeans":
        def kmeans(x, _flags):
            return cluster.KMeans(n_clusters=int(prm["k"]), n_init=int(prm.get("n_init", 10)),
                                  max_iter=int(prm.get("max_iter", 300)), tol=float(prm.get("tol", 1e-4)),
                                  random_state=seed).fit(x)
        km = timed(lambda: kmeans(xtr, is_cat))
        timed_pipeline(kmeans)
        out["metrics"] = {"inertia": float(km.inertia_), "test_inertia": float(-km.score(xte))}
        return out

    if task == "regression":
        ytr, yte = target(spec, train).astype(float), target(spec, test).astype(float)
        if alg == "LinearRegression":
            est = lambda: linear_model.LinearRegression()
        elif alg == "Ridge":
            est = lambda: linear_model.Ridge(alpha=float(prm.get("alpha", 1.0)))
        elif alg == "DecisionTree":
            est = lambda: tree.DecisionTreeRegressor(max_depth=prm.get("max_depth"),
                                                     min_samples_split=int(prm.get("min_samples_split", 2)),
                                                     min_samples_leaf=int(prm.get("min_samples_leaf", 1)),
                                                     random_state=seed)
        elif alg == "GradientBoosting":
            est = lambda: ensemble.GradientBoostingRegressor(n_estimators=int(prm.get("n_estimators", 100)),
                                                             learning_rate=float(prm.get("learning_rate", 0.1)),
                                                             max_depth=int(prm.get("max_depth", 3)), random_state=seed)
        model = timed(lambda: est().fit(xtr, ytr))
        timed_pipeline(lambda x, _flags: est().fit(x, ytr))
        out["metrics"] = regression_metrics(yte, model.predict(xte))
        if hasattr(model, "coef_"):
            out["coef"] = [float(c) for c in np.ravel(model.coef_)]
            out["intercept"] = float(model.intercept_)
        return out

    ytr, yte, k = class_codes(spec, train, test)
    if alg == "LogisticRegression":
        est = lambda: linear_model.LogisticRegression(C=float(prm.get("C", 1.0)), max_iter=int(prm.get("max_iter", 100)))
    elif alg == "NaiveBayes":
        est = lambda flags=is_cat: MixedNB(flags)
    elif alg == "DecisionTree":
        est = lambda: tree.DecisionTreeClassifier(criterion=prm.get("criterion", "gini"), max_depth=prm.get("max_depth"),
                                                  min_samples_split=int(prm.get("min_samples_split", 2)),
                                                  min_samples_leaf=int(prm.get("min_samples_leaf", 1)),
                                                  random_state=seed)
    elif alg == "GradientBoosting":
        est = lambda: ensemble.GradientBoostingClassifier(n_estimators=int(prm.get("n_estimators", 100)),
                                                          learning_rate=float(prm.get("learning_rate", 0.1)),
                                                          max_depth=int(prm.get("max_depth", 3)), random_state=seed)
    model = timed(lambda: est().fit(xtr, ytr))
    if alg == "NaiveBayes":
        timed_pipeline(lambda x, flags: est(flags).fit(x, ytr))
    else:
        timed_pipeline(lambda x, _flags: est().fit(x, ytr))
    keep = yte >= 0
    out["metrics"] = classification_metrics(yte[keep], model.predict_proba(xte[keep]), k)
    if alg == "LogisticRegression":
        out["coef"] = [float(c) for c in np.ravel(model.coef_)]
    return out


if __name__ == "__main__":
    # One spec path per input line, one JSON result per output line, so a
    # test binary pays the interpreter and import start-up once.
    for line in sys.stdin:
        with open(line.strip()) as f:
            spec = json.load(f)
        try:
            result = run(spec)
        except Exception as e:  # reported to the Go side, which fails the test
            result = {"error": repr(e)}
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()
