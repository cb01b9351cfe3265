"""`memlint estimate --plot FILE`: one stacked bar per phase (what is alive at that phase's
peak, by category) with the GPU's limit drawn; needs matplotlib (no torch)."""

from __future__ import annotations

from memlint.estimate.sizes import unit_for


def draw(result: dict, filename: str, budget: int | None, budget_label: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    phases = result.get("phase_breakdown", {})
    labels = list(phases)
    categories = list(dict.fromkeys(name for parts in phases.values() for name in parts))
    unit_name, unit = unit_for(max(result["peak_reserved"], result["peak_allocated"], budget or 0))
    fig, ax = plt.subplots(figsize=(max(6.0, 1.1 * len(labels) + 2), 4.8))
    colors = plt.get_cmap("tab20").colors
    bottoms = [0.0] * len(labels)
    for index, category in enumerate(categories):
        heights = [phases[label].get(category, 0) / unit for label in labels]
        ax.bar(labels, heights, bottom=bottoms, label=category, color=colors[index % len(colors)])
        bottoms = [b + h for b, h in zip(bottoms, heights)]
    ax.axhline(result["peak_reserved"] / unit, color="black", linestyle=":", linewidth=1,
               label=f"predicted peak reserved ({result['peak_reserved'] / unit:,.2f} {unit_name})")
    if budget is not None:
        ax.axhline(budget / unit, color="red", linewidth=1.5, label=f"{budget_label} ({budget / unit:,.2f} {unit_name})")
    ax.set_ylabel(f"allocated at the phase's peak ({unit_name})")
    ax.set_title(f"memlint estimate {result['target']}\n(torch {result['torch']}, fake tensors)", fontsize=9)
    ax.tick_params(axis="x", labelrotation=30, labelsize=8)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(filename, dpi=110)
    plt.close(fig)
