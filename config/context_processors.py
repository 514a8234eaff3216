def championship(request):
    """Give every template the championship of the request, if any."""
    return {"championship": getattr(request, "championship", None)}
